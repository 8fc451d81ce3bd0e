// Every test renders in English from the real catalogs, as a fresh window would on an
// English desktop. A test that wants Chinese awaits setUpI18n("zh") (its catalogs load
// when first wanted, as in the app) and calls setUpI18n("en") after.
import { setUpI18n } from "../i18n";

setUpI18n("en");
