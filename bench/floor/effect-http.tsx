// Stack floor, step 5: step 4 + @effect/platform's HttpClient over fetch, decoding a JSON body.
import { createRoot } from "react-dom/client"
import { startEffectStack } from "./effect-stack"

startEffectStack()
createRoot(document.body).render(<p>hello</p>)
