import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "./App";
import "./styles/app.css";
import "./styles/forms.css";
import "./styles/code.css";

const container = document.getElementById("root");
if (!container) {
  // index.html ships the root element; without it nothing can render, so say so loudly.
  throw new Error("Memo UI: #root element is missing from index.html");
}

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
