/**
 * Effect's scheduler for the browser app, sliced by time (issue 20, total blocking time).
 *
 * Effect's default scheduler yields a busy fiber every 2,048 operations, but to a microtask, so a long piece of Effect
 * work (building the app's services, a first render's streams) runs as one browser task and blocks input. This one
 * keeps Effect's order and semantics and only changes where work continues: once the Effect work of the current
 * browser task has run for `budgetMs`, fibers yield and continue in a new task (a MessageChannel message, not a
 * clamped timer), so the browser can paint and handle input between slices. Within budget it behaves like the
 * default: microtasks, and a yield every 2,048 operations.
 */
import { type Fiber, FiberRef, Scheduler } from "effect"

export interface SlicedSchedulerOptions {
  /** Effect work per browser task before fibers move to the next one. */
  readonly budgetMs: number
  readonly now: () => number
  /** Runs `f` in a later browser task. */
  readonly macrotask: (f: () => void) => void
  readonly microtask: (f: () => void) => void
}

/** How many operations a fiber runs between two looks at the clock. */
const CHECK_EVERY = 16
const MAX_OPS_BEFORE_YIELD = 2048

/** In the browser: MessageChannel for the next task, queueMicrotask, performance.now. */
export const browserSliceOptions = (budgetMs: number): SlicedSchedulerOptions => {
  const channel = new MessageChannel()
  const pending: Array<() => void> = []
  channel.port1.onmessage = () => pending.shift()?.()
  return {
    budgetMs,
    now: () => performance.now(),
    macrotask: (f) => {
      pending.push(f)
      channel.port2.postMessage(null)
    },
    microtask: (f) => queueMicrotask(f)
  }
}

export const makeSlicedScheduler = (options: SlicedSchedulerOptions): Scheduler.Scheduler => {
  const { budgetMs, now, macrotask, microtask } = options
  /** When the Effect work of the current browser task began, and whether that task is still running. */
  let sliceStart = 0
  let sliceOpen = false
  const touch = () => {
    if (sliceOpen) return
    sliceOpen = true
    sliceStart = now()
    // The next task closes the slice: whatever Effect work runs after it starts a new one.
    macrotask(() => {
      sliceOpen = false
    })
  }
  const spent = () => {
    touch()
    return now() - sliceStart >= budgetMs
  }

  const tasks = new Scheduler.PriorityBuckets()
  let scheduled = false
  const drain = () => {
    scheduled = false
    touch()
    const batch = tasks.buckets
    tasks.buckets = []
    for (const [, bucket] of batch) for (const task of bucket) task()
  }

  return {
    scheduleTask: (task, priority) => {
      tasks.scheduleTask(task, priority)
      if (scheduled) return
      scheduled = true
      if (spent()) macrotask(drain)
      else microtask(drain)
    },
    shouldYield: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => {
      const priority = () => fiber.getFiberRef(FiberRef.currentSchedulingPriority)
      if (fiber.currentOpCount > MAX_OPS_BEFORE_YIELD) return priority()
      return fiber.currentOpCount % CHECK_EVERY === 0 && spent() ? priority() : false
    }
  }
}
