// Every test renders in English from the real catalogs, as a fresh window would on an
// English desktop; a test that wants Chinese calls setUpI18n("zh") and back.
import { setUpI18n } from "../i18n";

setUpI18n("en");
