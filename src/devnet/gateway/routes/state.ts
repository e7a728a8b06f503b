/** The State group: entities, non-fungibles, key-value stores, account settings and account lockers, each in its own module under `state/`. */
import type { EmulatorContext } from "../context"
import type { Routes } from "../failure"
import { accountHandlers } from "./state/account"
import { accountLockerHandlers } from "./state/accountLocker"
import { entityHandlers } from "./state/entity"
import { keyValueStoreHandlers } from "./state/keyValueStore"
import { nonFungibleHandlers } from "./state/nonFungible"

export const STATE_PATHS = [
  "/state/entity/details",
  "/state/entity/page/metadata",
  "/state/entity/page/fungibles/",
  "/state/entity/page/fungible-vaults/",
  "/state/entity/page/non-fungibles/",
  "/state/entity/page/non-fungible-vaults/",
  "/state/entity/page/non-fungible-vault/ids",
  "/state/non-fungible/ids",
  "/state/non-fungible/data",
  "/state/non-fungible/location",
  "/state/key-value-store/keys",
  "/state/key-value-store/data",
  "/state/account/page/resource-preferences",
  "/state/account/page/authorized-depositors",
  "/state/account-locker/page/vaults",
  "/state/account-lockers/touched-at"
] as const

export const stateRoutes = (ctx: EmulatorContext): Routes<typeof STATE_PATHS> => {
  const entity = entityHandlers(ctx)
  const nonFungible = nonFungibleHandlers(ctx)
  const keyValueStore = keyValueStoreHandlers(ctx)
  const account = accountHandlers(ctx)
  const locker = accountLockerHandlers(ctx)
  return {
    "/state/entity/details": entity.entityDetails,
    "/state/entity/page/metadata": entity.metadataPage,
    "/state/entity/page/fungibles/": entity.fungiblesPage,
    "/state/entity/page/fungible-vaults/": entity.fungibleVaultsPage,
    "/state/entity/page/non-fungibles/": nonFungible.nonFungiblesPage,
    "/state/entity/page/non-fungible-vaults/": nonFungible.nonFungibleVaultsPage,
    "/state/entity/page/non-fungible-vault/ids": nonFungible.nonFungibleVaultIdsPage,
    "/state/non-fungible/ids": nonFungible.nonFungibleIds,
    "/state/non-fungible/data": nonFungible.nonFungibleData,
    "/state/non-fungible/location": nonFungible.nonFungibleLocation,
    "/state/key-value-store/keys": keyValueStore.keyValueStoreKeys,
    "/state/key-value-store/data": keyValueStore.keyValueStoreData,
    "/state/account/page/resource-preferences": account.resourcePreferencesPage,
    "/state/account/page/authorized-depositors": account.authorizedDepositorsPage,
    "/state/account-locker/page/vaults": locker.accountLockerVaultsPage,
    "/state/account-lockers/touched-at": locker.accountLockersTouchedAt
  }
}
