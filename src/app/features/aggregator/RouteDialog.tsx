import { Effect, Either } from "effect"
import { useId, useState, type FormEvent } from "react"
import { useFork } from "../../runtime/app-runtime"
import { Browser } from "../../services/Browser"
import { Dialog } from "../../ui/Dialog"
import { Button } from "../../ui/kit"
import {
  type DraftErrors,
  type RouteDraft,
  type RouteToken,
  type TradingRoute,
  notSavedToast,
  TradingRoutes,
  validateDraft
} from "./TradingRoutes"

/** Which editor is open: a new route, or an existing one. */
export type EditorTarget = { readonly _tag: "Add" } | { readonly _tag: "Edit"; readonly route: TradingRoute }

const emptyToken: RouteToken = { name: "", image: "", address: "" }
const emptyDraft: RouteDraft = { name: "", sellToken: emptyToken, buyToken: emptyToken }

const inputClass =
  "w-full rounded-lg border border-line bg-panel-2 px-3 py-2 text-sm text-ink placeholder:text-muted/70 focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent aria-[invalid=true]:border-danger"

function Field(props: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly type?: "text" | "url"
  readonly placeholder?: string
  readonly error?: string | undefined
  readonly mono?: boolean
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-muted">
        {props.label}
      </label>
      <input
        id={id}
        type={props.type ?? "text"}
        value={props.value}
        placeholder={props.placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={props.error !== undefined}
        aria-describedby={props.error !== undefined ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        className={`${inputClass} ${props.mono === true ? "font-mono text-xs" : ""}`}
      />
      {props.error !== undefined && (
        <p id={errorId} role="alert" className="text-xs text-danger">
          {props.error}
        </p>
      )}
    </div>
  )
}

function TokenFields(props: {
  readonly legend: string
  readonly token: RouteToken
  readonly onChange: (token: RouteToken) => void
  readonly imageError: string | undefined
}) {
  const set = (patch: Partial<RouteToken>) => props.onChange({ ...props.token, ...patch })
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-xl border border-line p-3">
      <legend className="px-1 text-sm font-semibold">{props.legend}</legend>
      <Field label="Name" value={props.token.name} onChange={(name) => set({ name })} placeholder="hUSDC" />
      <Field
        label="Image URL"
        type="url"
        value={props.token.image}
        onChange={(image) => set({ image })}
        placeholder="https://…/token.png"
        error={props.imageError}
      />
      <Field
        label="Address"
        value={props.token.address}
        onChange={(address) => set({ address })}
        placeholder="resource_…"
        mono
      />
    </fieldset>
  )
}

function RouteForm({ target, onClose }: { readonly target: EditorTarget; readonly onClose: () => void }) {
  const fork = useFork()
  const [draft, setDraft] = useState<RouteDraft>(target._tag === "Edit" ? target.route : emptyDraft)
  const [errors, setErrors] = useState<DraftErrors>({})
  const [busy, setBusy] = useState(false)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const checked = validateDraft(draft)
    if (Either.isLeft(checked)) {
      setErrors(checked.left)
      return
    }
    setErrors({})
    setBusy(true)
    const done = Effect.sync(() => setBusy(false))
    const close = Effect.sync(onClose)
    // Spec §4: adding appends, selects, closes the dialog and reloads the page; saving an edit replaces the route.
    const save =
      target._tag === "Add"
        ? TradingRoutes.add(checked.right).pipe(Effect.zipRight(close), Effect.zipRight(Browser.reload))
        : TradingRoutes.update({ ...checked.right, id: target.route.id }).pipe(Effect.zipRight(close))
    fork(
      save.pipe(
        Effect.catchTag("RoutesNotSaved", () => notSavedToast.pipe(Effect.zipRight(close))),
        Effect.ensuring(done)
      )
    )
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2" data-testid="route-form">
      <div className="sm:col-span-2">
        <Field label="Route Name" value={draft.name} onChange={(name) => setDraft((d) => ({ ...d, name }))} />
      </div>
      <TokenFields
        legend="Sell Token"
        token={draft.sellToken}
        imageError={errors.sellImage}
        onChange={(sellToken) => {
          setDraft((d) => ({ ...d, sellToken }))
          setErrors(({ buyImage }) => (buyImage === undefined ? {} : { buyImage }))
        }}
      />
      <TokenFields
        legend="Buy Token"
        token={draft.buyToken}
        imageError={errors.buyImage}
        onChange={(buyToken) => {
          setDraft((d) => ({ ...d, buyToken }))
          setErrors(({ sellImage }) => (sellImage === undefined ? {} : { sellImage }))
        }}
      />
      {/* Kept in view while the form scrolls (a short window or a phone). */}
      <div className="sticky -bottom-6 -mx-6 -mb-6 flex justify-end gap-3 border-t border-line bg-panel px-6 py-4 sm:col-span-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {target._tag === "Add" ? "Add Route" : "Save Changes"}
        </Button>
      </div>
    </form>
  )
}

/** The Add/Edit dialog of spec §2: 'Add New Route' or 'Edit Route'. */
export function RouteDialog({
  target,
  onClose
}: {
  readonly target: EditorTarget | undefined
  readonly onClose: () => void
}) {
  const key = target === undefined ? "closed" : target._tag === "Add" ? "add" : `edit-${target.route.id}`
  return (
    <Dialog
      open={target !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title={target?._tag === "Edit" ? "Edit Route" : "Add New Route"}
      testId="route-dialog"
      wide
    >
      {target !== undefined && <RouteForm key={key} target={target} onClose={onClose} />}
    </Dialog>
  )
}
