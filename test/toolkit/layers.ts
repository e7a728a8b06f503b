/** Test layers shared by the toolkit tests. */
import { KeyValueStore } from "@effect/platform"
import { Layer, type Ref } from "effect"
import { ToolkitConfig, type ToolkitOptions } from "../../src/toolkit/config.js"
import { Crypto } from "../../src/toolkit/crypto.js"
import { Environment } from "../../src/toolkit/environment.js"
import { Storage } from "../../src/toolkit/storage.js"

export const dAppDefinitionAddress = "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe"
export const origin = "http://localhost:5173"

export const baseOptions: ToolkitOptions = { networkId: 2, dAppDefinitionAddress }

export interface BaseLayerOptions {
  readonly events?: EventTarget
  readonly isMobile?: boolean
  readonly isTelegramMiniApp?: boolean
  readonly opened?: Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>
  readonly options?: Partial<ToolkitOptions>
  readonly seed?: string
}

/** Config, memory KeyValueStore, Storage, seeded Crypto and a scripted Environment. */
export const baseLayer = (o: BaseLayerOptions = {}) =>
  Layer.mergeAll(
    Storage.Default,
    Crypto.Test(o.seed),
    Environment.Test({
      origin,
      ...(o.events ? { events: o.events } : {}),
      ...(o.isMobile !== undefined ? { isMobile: o.isMobile } : {}),
      ...(o.isTelegramMiniApp !== undefined ? { isTelegramMiniApp: o.isTelegramMiniApp } : {}),
      ...(o.opened ? { opened: o.opened } : {})
    })
  ).pipe(
    Layer.provideMerge(KeyValueStore.layerMemory),
    Layer.provideMerge(ToolkitConfig.layer({ ...baseOptions, ...o.options }))
  )
