//! The desktop's languages for messages, as POSIX locales give them: `LANGUAGE` (a list,
//! GNU gettext's) first, then the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set.
//! The page picks its language from these; `C` and `POSIX` say nothing.

/// Locale names without their encoding or modifier (`zh_CN.UTF-8@pinyin` → `zh_CN`).
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let clean = |locale: &str| -> Option<String> {
        let name = locale.split(['.', '@']).next().unwrap_or_default().trim();
        (!name.is_empty() && name != "C" && name != "POSIX").then(|| name.to_owned())
    };
    let mut out: Vec<String> = Vec::new();
    // LANGUAGE counts only with a real locale set, as gettext has it.
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|name| var(name).filter(|value| !value.is_empty()));
    if locale.as_deref().and_then(clean).is_some() {
        if let Some(list) = var("LANGUAGE") {
            out.extend(list.split(':').filter_map(clean));
        }
    }
    if let Some(name) = locale.as_deref().and_then(clean) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A script run in the page before its own: the desktop's languages, so the first frame is
/// already in the person's language (WebKit's `navigator.languages` misses a locale that is
/// not installed, and `app_info` arrives only after the first render).
pub fn page_script(languages: &[String]) -> String {
    let list = serde_json::to_string(languages).unwrap_or_else(|_| "[]".to_owned());
    format!("window.__MEMO_SYSTEM_LANGUAGES__ = Object.freeze({list});")
}

/// The plugin that puts [`page_script`] in the window.
pub fn plugin<R: tauri::Runtime>() -> tauri::plugin::TauriPlugin<R> {
    let languages = from_env(|name| std::env::var(name).ok());
    tauri::plugin::Builder::new("memo-languages")
        .js_init_script(page_script(&languages))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn reads_the_list_then_the_locale_without_encodings() {
        assert_eq!(
            from_env(env(&[("LANGUAGE", "zh_CN:en"), ("LANG", "zh_CN.UTF-8")])),
            ["zh_CN", "en"]
        );
        assert_eq!(from_env(env(&[("LANG", "zh_TW.UTF-8@x")])), ["zh_TW"]);
        assert_eq!(
            from_env(env(&[
                ("LC_ALL", ""),
                ("LC_MESSAGES", "de_DE.UTF-8"),
                ("LANG", "en_US")
            ])),
            ["de_DE"]
        );
    }

    #[test]
    fn c_and_an_unset_locale_say_nothing_and_language_alone_is_ignored() {
        assert!(from_env(env(&[("LANG", "C.UTF-8")])).is_empty());
        assert!(from_env(env(&[("LANGUAGE", "zh_CN")])).is_empty());
        assert!(from_env(env(&[])).is_empty());
    }

    #[test]
    fn the_page_script_sets_the_list_as_json() {
        assert_eq!(
            page_script(&["zh_CN".into(), "en_US".into()]),
            r#"window.__MEMO_SYSTEM_LANGUAGES__ = Object.freeze(["zh_CN","en_US"]);"#
        );
        // A locale name is data, never script.
        assert!(page_script(&["x\"];alert(1);//".into()]).contains(r#"["x\"];alert(1);//"]"#));
    }
}
