import confetti from "canvas-confetti"

/** Spec §9: confetti for 2 s. */
export const CONFETTI_MILLIS = 2000

/**
 * canvas-confetti's default cannon draws in a Web Worker started from a `blob:` URL, which the page's CSP
 * (`script-src 'self'`, no `worker-src`) refuses. This cannon draws on the main thread, on its own full-window
 * canvas, so the effect works under the CSP as it is.
 */
let cannon: confetti.CreateTypes | undefined
const fire = (options: confetti.Options) => {
  cannon ??= confetti.create(undefined, { resize: true, useWorker: false, disableForReducedMotion: true })
  return cannon(options)
}

/** Confetti for 2 s and a short two-note chime. Browser only; loaded lazily. */
export const celebrate = async (): Promise<void> => {
  const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true
  if (!reduceMotion) {
    const end = performance.now() + CONFETTI_MILLIS
    const frame = () => {
      void fire({ particleCount: 4, angle: 60, spread: 60, origin: { x: 0 }, disableForReducedMotion: true })
      void fire({ particleCount: 4, angle: 120, spread: 60, origin: { x: 1 }, disableForReducedMotion: true })
      if (performance.now() < end) requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  }
  chime()
}

const chime = () => {
  const Ctx = window.AudioContext
  if (Ctx === undefined) return
  const ctx = new Ctx()
  const notes = [660, 990]
  notes.forEach((hz, i) => {
    const osc = ctx.createOscillator()
    const gain = ctx.createGain()
    osc.frequency.value = hz
    osc.type = "sine"
    const start = ctx.currentTime + i * 0.12
    gain.gain.setValueAtTime(0.0001, start)
    gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02)
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35)
    osc.connect(gain).connect(ctx.destination)
    osc.start(start)
    osc.stop(start + 0.4)
  })
  // The context closes once the notes are done (audio time, not a timer).
  const last = ctx.createOscillator()
  last.onended = () => void ctx.close()
  last.connect(ctx.createGain())
  last.start(ctx.currentTime + 0.5)
  last.stop(ctx.currentTime + 0.5)
}
