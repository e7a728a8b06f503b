// Stack floor, step 7: step 6 + the three Radix UI primitives the anchor uses too (dialog, toast, tooltip).
import * as Dialog from "@radix-ui/react-dialog"
import * as Toast from "@radix-ui/react-toast"
import * as Tooltip from "@radix-ui/react-tooltip"
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router"
import { createRoot } from "react-dom/client"
import { startEffectStack } from "./effect-stack"

startEffectStack()
function Page() {
  return (
    <Tooltip.Provider>
      <Toast.Provider>
        <Dialog.Root>
          <Dialog.Trigger>open</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay />
            <Dialog.Content>
              <Dialog.Title>title</Dialog.Title>
              <Dialog.Description>description</Dialog.Description>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <Tooltip.Root>
          <Tooltip.Trigger>tip</Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content>text</Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
        <Toast.Root open>
          <Toast.Title>toast</Toast.Title>
        </Toast.Root>
        <Toast.Viewport />
      </Toast.Provider>
    </Tooltip.Provider>
  )
}
const root = createRootRoute({ component: () => <Outlet /> })
const index = createRoute({ getParentRoute: () => root, path: "/", component: Page })
const router = createRouter({ routeTree: root.addChildren([index]) })
createRoot(document.body).render(<RouterProvider router={router} />)
