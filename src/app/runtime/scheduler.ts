/**
 * The browser app's Effect scheduler: fibers run in time slices, so Effect's work never holds the main thread for
 * long (DESIGN §6, total blocking time).
 *
 * Effect's default scheduler runs resumed fibers in microtasks, up to 2048 in a row, and a fiber yields only after
 * 2048 operations: building the runtime, the islands' first subscriptions and the first requests all ran in one task
 * of a few hundred milliseconds on a slow phone. This one runs them in microtasks as long as the current slice lasts
 * (`sliceMs` from the first piece of Effect work in the current task), and once it is used up, a running fiber yields
 * at its next check, no other waiting fiber starts, and the queued work continues in a new task (a MessageChannel message, which, unlike a timer, is
 * neither clamped nor throttled), after the browser has had its turn: input, rendering, React's own work.
 *
 * Only the order of work across tasks changes: priorities, a fiber's own sequence and Effect's Clock are untouched.
 */
import { Effect, Fiber, FiberRef, Layer, ManagedRuntime, Scheduler } from "effect"
import { postMacrotask } from "./inStages"

export interface SlicedSchedulerOptions {
  /** How long Effect may run in one task before it lets the browser in. */
  readonly sliceMs?: number
  /** The time source (ms); performance.now in the browser. */
  readonly now?: () => number
  /** Runs `f` in a later task. */
  readonly macrotask?: (f: () => void) => void
}

/** A running fiber checks the clock once every this many operations (reading it every operation would cost). */
const CHECK_EVERY_OPS = 32

/**
 * A ManagedRuntime of `layer` whose work runs in time slices, and `build`, which builds it on the sliced scheduler
 * from the build's first operation.
 *
 * ManagedRuntime builds its layer on Effect's SyncScheduler, in the caller's task, until the layer sets the scheduler:
 * the runtime's machinery and the first layers ran there cold, one task of 57–231 ms at 4× slowdown under
 * `bench:app --trace` (the app's runtime). `build` fills the runtime's MemoMap with the layer first, in a fiber of its
 * own on the sliced scheduler, then asks the runtime for itself: ManagedRuntime's build then finds the layer built,
 * and the rest of its work is a lookup. A fiber that needs the runtime before that waits for the same build. The
 * build's own scope only lends the layer to the runtime's, which keeps it until `dispose`.
 * For the app's runtime (vitest, jsdom, no slowdown) the synchronous part of starting the build went from 22–31 ms
 * (`runtime()`) to 3.5 ms (`build()`); on bench:app's static server, 10 interleaved loads each at 4×, the blocking
 * time the app's own tasks added after FCP (long-animation-frame entries of `index.js (event-listener)`) went from a
 * mean of 91 ms to 59 ms.
 */
export const makeSlicedRuntime = <ROut, E>(layer: Layer.Layer<ROut, E>, options?: SlicedSchedulerOptions) => {
  const scheduler = makeSlicedScheduler(options)
  const sliced = Layer.provide(layer, Layer.setScheduler(scheduler))
  const runtime = ManagedRuntime.make(sliced)
  // The build's fiber runs on a stand-in that does what `scheduler` does. A layer's build records which FiberRefs it
  // changes, and ManagedRuntime's build applies those changes to the runtime it makes: on `scheduler` itself, setting
  // the scheduler would be no change, and the runtime would keep the SyncScheduler it was started on.
  const standIn: Scheduler.Scheduler = {
    shouldYield: (fiber) => scheduler.shouldYield(fiber),
    scheduleTask: (task, priority, fiber) => scheduler.scheduleTask(task, priority, fiber)
  }
  const build = (): Promise<void> => {
    const filled = Effect.scoped(
      Effect.flatMap(Effect.scope, (scope) => Layer.buildWithMemoMap(sliced, runtime.memoMap, scope)).pipe(
        Effect.zipRight(Effect.promise(() => runtime.runtime()))
      )
    )
    const fiber = Effect.runFork(filled, { scheduler: standIn, immediate: false })
    return Effect.runPromise(Fiber.join(fiber)).then(() => undefined)
  }
  return { runtime, build, scheduler } as const
}

export const makeSlicedScheduler = (options: SlicedSchedulerOptions = {}): Scheduler.Scheduler => {
  const sliceMs = options.sliceMs ?? 8
  const now = options.now ?? (() => performance.now())
  const macrotask = options.macrotask ?? postMacrotask()
  const tasks = new Scheduler.PriorityBuckets()
  let running = false
  // When Effect's work in the current task began; cleared by a message queued at that moment, which runs after it.
  let sliceStart: number | undefined

  const spent = (): number => {
    const t = now()
    if (sliceStart === undefined) {
      sliceStart = t
      macrotask(() => {
        sliceStart = undefined
      })
    }
    return t - sliceStart
  }
  const overBudget = () => spent() >= sliceMs

  const drain = () => {
    const buckets = tasks.buckets
    tasks.buckets = []
    let ran = 0
    for (let b = 0; b < buckets.length; b++) {
      const [priority, run] = buckets[b] ?? [0, []]
      for (let i = 0; i < run.length; i++) {
        // Many fibers waiting: once the slice is used up, the rest go first in the next task, in their order.
        if (ran > 0 && overBudget()) {
          const fresh = tasks.buckets
          tasks.buckets = []
          for (let j = i; j < run.length; j++) tasks.scheduleTask(run[j] as Scheduler.Task, priority)
          for (const [p, rest] of buckets.slice(b + 1)) for (const task of rest) tasks.scheduleTask(task, p)
          for (const [p, rest] of fresh) for (const task of rest) tasks.scheduleTask(task, p)
          next()
          return
        }
        run[i]?.()
        ran += 1
      }
    }
    if (tasks.buckets.length === 0) running = false
    else next()
  }
  const next = () => {
    if (overBudget()) macrotask(drain)
    else queueMicrotask(drain)
  }

  return {
    shouldYield: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => {
      const ops = fiber.currentOpCount
      const yieldNow =
        ops > fiber.getFiberRef(FiberRef.currentMaxOpsBeforeYield) || (ops % CHECK_EVERY_OPS === 0 && overBudget())
      return yieldNow ? fiber.getFiberRef(FiberRef.currentSchedulingPriority) : false
    },
    scheduleTask: (task, priority) => {
      tasks.scheduleTask(task, priority)
      if (!running) {
        running = true
        next()
      }
    }
  }
}
