// Stage 4 of the live half (see shell/islands.tsx): the HTTP client and storage of @effect/platform.
import { FetchHttpClient, HttpClient, KeyValueStore } from "@effect/platform"
import { BrowserKeyValueStore } from "@effect/platform-browser"

export const stage = [
  FetchHttpClient.layer,
  HttpClient.HttpClient,
  KeyValueStore.KeyValueStore,
  BrowserKeyValueStore.layerLocalStorage
] as const
