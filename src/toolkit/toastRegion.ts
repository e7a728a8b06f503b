/**
 * The mark on the page's notification region (the app's toasts, src/app/ui/toast.tsx). The toolkit's connect popover
 * and the app's dialogs do not treat a press there as a press outside them, as with Radix's own toasts.
 */
export const TOAST_REGION_ATTRIBUTE = "data-toast-region"

/** Whether an event target is inside the notification region: not "outside" an open dialog or popover. */
export const isInToastRegion = (target: EventTarget | null): boolean =>
  typeof Element !== "undefined" && target instanceof Element && target.closest(`[${TOAST_REGION_ATTRIBUTE}]`) !== null
