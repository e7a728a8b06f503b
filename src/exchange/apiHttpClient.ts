/**
 * The product API client over any `@effect/platform` `HttpClient` (the tests' fakes, middleware, Node). Apart from
 * `http.ts`, so that the app, which sends with `fetch` itself (`ApiHttp.fetch`), does not load `@effect/platform`.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { ApiHttp, FetchTransportError, requestHeaders } from "./http"

/**
 * `ApiHttp` over the context's `HttpClient`: the request's credentials (included unless it says otherwise, as
 * `FetchHttpClient` reads them) and headers, JSON asked for.
 */
export const apiHttpFromHttpClient: Layer.Layer<ApiHttp, never, HttpClient.HttpClient> = Layer.effect(
  ApiHttp,
  Effect.map(HttpClient.HttpClient, (client) =>
    ApiHttp.of({
      send: (request) => {
        const base = HttpClientRequest.make(request.method)(request.url).pipe(
          HttpClientRequest.setHeaders(requestHeaders(request))
        )
        const outgoing =
          request.body === undefined ? base : HttpClientRequest.bodyText(base, request.body, "application/json")
        return client.execute(outgoing).pipe(
          Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, text }))),
          Effect.provideService(FetchHttpClient.RequestInit, { credentials: request.credentials ?? "include" }),
          Effect.mapError((e) => new FetchTransportError({ url: request.url, reason: e.message }))
        )
      }
    })
  )
)
