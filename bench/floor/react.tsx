// Stack floor, step 1: React alone (see bench/app.ts, "stack floor").
import { createRoot } from "react-dom/client"

createRoot(document.body).render(<p>hello</p>)
