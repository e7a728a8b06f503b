/**
 * Public addresses of the devnet genesis (network 240, `localnet`), derived from the default devnet seed by
 * `src/devnet/ledger/genesis.ts`; `test/devnet/genesis.test.ts` re-derives them. Plain constants: browser code
 * imports this file for its default configuration, so it must not import anything.
 */
export const DevnetAddresses = {
  networkId: 240,
  exchangeAccount: "account_loc1298a6crhd9ulfl2tm0r5akxfazrys57d056ps0apv20588zv845uye",
  fundAccount: "account_loc1284dmtccz65yyhl94fzulz7zsef466fk2myu2l58tvq8vec9a6wawh",
  dAppDefinition: "account_loc12xavgvh6kkyszdq9wxncqndvevex2kma7632x8qck3qg5lvphfxngv",
  users: [
    "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp",
    "account_loc128kkxqxned9948j8rr2dwe2d8hv5ycr6segy462ens5zvgfa369m63",
    "account_loc12x9avwfqc7490cmx9puc2khrweh05dp0ek9c3zrumh45qw75448vgr"
  ],
  persona: "identity_loc122a5murp2jc4ls6e6cqpx8x5t8eg29hggz8euwja5dpglqr7pmu26u",
  resources: {
    XRD: "resource_loc1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxvq32hv",
    hUSDC: "resource_loc1t4enmx4sy4j3tm7d680wq24vke4e6max2qdv9czdhrx5t3ehg38rcw",
    hUSDT: "resource_loc1thfg4cd7ghuqf73w2lr2fwyaks0ed3mudla69ryuy9er006dr6tgj2",
    hETH: "resource_loc1t4eq9eaz7n8qp96cteuvwndth5hf5tysmjjahruz3kfn6yec6eg936",
    hBTC: "resource_loc1t5maxg8ffpjahw9s3v2a3y2tndfzde6v4ghgvc34l2gasny0wuytf7",
    hWBTC: "resource_loc1t4q65y57uz3epugg7jjqz3yu0kyvvk9ldl9lhgad3fklk3h3yyjnff",
    xUSDC: "resource_loc1tkefu98v93quanntygvthva72wkpyu8pfl98vjpzcr9ydpz6jwl9tf",
    xUSDT: "resource_loc1t5xhy429acl8qvm4mzs3md4kxf5kcl44zqk4xw55vae9xfm5nfzwmv",
    xETH: "resource_loc1tkuk06synclgdu94c2nx2490kg3aegwy2mgwn0dqjp7d2x5dwhy4ur",
    xBTC: "resource_loc1tkhev6xxlczd3wuxdqfc87y7axs7hcnvrapqhdmc4e8qtp3mj6m4xe",
    LSULP: "resource_loc1tkg960nvp7ghfplrjuk4r6x05m8c9l5chds3m2h57fwjp3k8nzf4ld",
    GKS: "resource_loc1th32grsez0kukcp7s5vl2w7a2r0c5y7vf34z8ymtjmgz3nfwwhxxqt"
  }
} as const

export type DevnetResourceSymbol = keyof typeof DevnetAddresses.resources
