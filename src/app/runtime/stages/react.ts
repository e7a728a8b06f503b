/**
 * The first stage of the entry (see main.tsx and runtime/inStages.ts): React and React DOM, evaluated in a task of
 * their own after the first paint, before the app's own modules.
 */
// Each module by its own path, so that the build's stage files (build/liveStageChunks.ts) see which it needs.
import { createElement } from "react"
import { flushSync } from "react-dom"
import { hydrateRoot } from "react-dom/client"
import { jsx } from "react/jsx-runtime"

export const stage = [createElement, flushSync, hydrateRoot, jsx] as const
