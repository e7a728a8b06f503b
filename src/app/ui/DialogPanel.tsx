import * as RadixDialog from "@radix-ui/react-dialog"
import type { DialogPanelProps } from "./dialogProps"
import { isInToastRegion } from "./toast"

/** The dialog itself, on Radix Dialog; loaded by {@link Dialog} the first time one opens. */
export function DialogPanel({ opener, ...props }: DialogPanelProps) {
  return (
    <RadixDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60 backdrop-blur-sm" />
        <RadixDialog.Content
          data-testid={props.testId}
          // A toast over the dialog is not outside it: closing or swiping the toast leaves the dialog open.
          onInteractOutside={(event) => {
            if (isInToastRegion(event.target)) event.preventDefault()
          }}
          // The dialogs open from state, not from a Radix trigger: give focus back to the control that opened them.
          onCloseAutoFocus={(event) => {
            const target = opener.current
            if (target === null || !target.isConnected) return
            event.preventDefault()
            target.focus({ preventScroll: true })
          }}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90dvh] w-[92vw] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-line bg-panel p-6 shadow-2xl focus:outline-none ${props.wide === true ? "max-w-2xl" : "max-w-lg"}`}
        >
          <RadixDialog.Title className="pr-8 text-lg font-semibold">{props.title}</RadixDialog.Title>
          {props.description !== undefined ? (
            <RadixDialog.Description className="mt-2 text-sm text-muted">{props.description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{props.title}</RadixDialog.Description>
          )}
          <div className="mt-4">{props.children}</div>
          <RadixDialog.Close
            aria-label="Close"
            className="absolute right-4 top-4 rounded p-1 text-xl leading-none text-muted hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            ×
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  )
}
