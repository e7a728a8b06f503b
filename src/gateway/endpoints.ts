/** Every Gateway path this client speaks (36), with its request and response schemas. */
import { OtherEndpoints } from "./endpointsOther"
import { StateEndpoints } from "./endpointsState"

export const Endpoints = {
  status: OtherEndpoints.status,
  transaction: OtherEndpoints.transaction,
  stream: OtherEndpoints.stream,
  state: StateEndpoints,
  statistics: OtherEndpoints.statistics,
  extensions: OtherEndpoints.extensions
} as const
