//! The agent's own settings for its session — its mode, its model, its thinking level —
//! as Memo's header offers them, however the agent speaks of them.
//!
//! ACP has had three ways: session config options (`configOptions`, set with
//! `session/set_config_option`, which answers with all of them), and before them modes
//! (`modes`, `session/set_mode`) and, unstable, models (`models`, `session/set_model`).
//! Config options come first (the protocol asks clients to prefer them): an agent's modes
//! or models are read only when no config option is of that category, so an agent that
//! offers both ways is not shown twice, and one that moved only its models to config
//! options (as Memo's own does) keeps its modes.

use memo_protocol::{AgentSetting, AgentSettingChoice};
use serde_json::{json, Value};

/// The pseudo-ids of the older ways, as Memo's header names them.
const MODE: &str = "mode";
const MODEL: &str = "model";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    ConfigOption,
    Mode,
    Model,
}

/// The settings of one session of the agent's, as it last said.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Settings {
    items: Vec<(AgentSetting, Via)>,
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn choice(value: &Value, id_key: &str) -> Option<AgentSettingChoice> {
    let id = text(value, id_key)?;
    Some(AgentSettingChoice {
        name: text(value, "name").unwrap_or_else(|| id.clone()),
        value: id,
        description: text(value, "description").filter(|d| !d.is_empty()),
    })
}

/// A config option of the select kind (the one kind the protocol has); its grouped
/// options are listed in their groups' order.
fn config_option(value: &Value) -> Option<AgentSetting> {
    if value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("select")
        != "select"
    {
        return None;
    }
    let id = text(value, "id")?;
    let mut choices = Vec::new();
    for option in value.get("options")?.as_array()? {
        match option.get("options").and_then(Value::as_array) {
            Some(group) => choices.extend(group.iter().filter_map(|o| choice(o, "value"))),
            None => choices.extend(choice(option, "value")),
        }
    }
    Some(AgentSetting {
        name: text(value, "name").unwrap_or_else(|| id.clone()),
        id,
        category: text(value, "category"),
        current: text(value, "currentValue")?,
        choices,
    })
}

fn config_options(list: &Value) -> Vec<(AgentSetting, Via)> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(config_option)
        .map(|s| (s, Via::ConfigOption))
        .collect()
}

/// The older modes or models state: `{current…, available…: [...]}`.
fn older(
    state: &Value,
    id: &str,
    name: &str,
    current: &str,
    list: &str,
    item_id: &str,
) -> Option<AgentSetting> {
    let choices: Vec<_> = state
        .get(list)?
        .as_array()?
        .iter()
        .filter_map(|c| choice(c, item_id))
        .collect();
    if choices.is_empty() {
        return None;
    }
    Some(AgentSetting {
        id: id.to_owned(),
        name: name.to_owned(),
        category: Some(id.to_owned()),
        current: text(state, current)?,
        choices,
    })
}

impl Settings {
    /// From the answer to `session/new` or `session/load`.
    pub fn read(answer: &Value) -> Self {
        let mut items = answer
            .get("configOptions")
            .map(config_options)
            .unwrap_or_default();
        let offered = |items: &[(AgentSetting, Via)], what: &str| {
            items
                .iter()
                .any(|(s, _)| s.category.as_deref() == Some(what) || s.id == what)
        };
        let mode = answer
            .get("modes")
            .filter(|_| !offered(&items, MODE))
            .and_then(|m| older(m, MODE, "Mode", "currentModeId", "availableModes", "id"));
        let model = answer
            .get("models")
            .filter(|_| !offered(&items, MODEL))
            .and_then(|m| {
                older(
                    m,
                    MODEL,
                    "Model",
                    "currentModelId",
                    "availableModels",
                    "modelId",
                )
            });
        items.extend(mode.map(|m| (m, Via::Mode)));
        items.extend(model.map(|m| (m, Via::Model)));
        Self { items }
    }

    pub fn list(&self) -> Vec<AgentSetting> {
        self.items.iter().map(|(s, _)| s.clone()).collect()
    }

    /// Takes a `session/update` that changes them; whether it did.
    pub fn update(&mut self, update: &Value) -> bool {
        match update.get("sessionUpdate").and_then(Value::as_str) {
            Some("config_option_update") => match update.get("configOptions") {
                Some(options) => self.replace_config_options(options),
                None => false,
            },
            Some("current_mode_update") => match text(update, "currentModeId") {
                Some(mode) => self.set_current(Via::Mode, &mode),
                None => false,
            },
            Some("current_model_update") => match text(update, "currentModelId") {
                Some(model) => self.set_current(Via::Model, &model),
                None => false,
            },
            _ => false,
        }
    }

    /// All config options anew (the protocol always sends them whole); modes and models
    /// read the older way stay. Whether anything changed.
    fn replace_config_options(&mut self, options: &Value) -> bool {
        let before = self.items.clone();
        let mut items = config_options(options);
        items.extend(
            self.items
                .drain(..)
                .filter(|(_, via)| *via != Via::ConfigOption),
        );
        self.items = items;
        self.items != before
    }

    fn set_current(&mut self, via: Via, value: &str) -> bool {
        match self.items.iter_mut().find(|(_, v)| *v == via) {
            Some((setting, _)) if setting.current != value => {
                setting.current = value.to_owned();
                true
            }
            _ => false,
        }
    }

    /// The request that sets `id` to `value` in agent session `session`: its method and
    /// params. `None` when the agent has no such setting or value (a stale menu, a
    /// mistyped `--agent-setting`): nothing is sent the agent would have to refuse.
    pub fn request(&self, session: &str, id: &str, value: &str) -> Option<(&'static str, Value)> {
        let (setting, via) = self.items.iter().find(|(s, _)| s.id == id)?;
        if !setting.choices.iter().any(|c| c.value == value) {
            return None;
        }
        Some(match via {
            Via::ConfigOption => (
                "session/set_config_option",
                json!({"sessionId": session, "configId": id, "value": value}),
            ),
            Via::Mode => (
                "session/set_mode",
                json!({"sessionId": session, "modeId": value}),
            ),
            Via::Model => (
                "session/set_model",
                json!({"sessionId": session, "modelId": value}),
            ),
        })
    }

    /// The agent took `id` = `value` and answered `answer`: config options come back
    /// whole; a mode or model is as asked.
    pub fn took(&mut self, id: &str, value: &str, answer: &Value) {
        let Some(via) = self.items.iter().find(|(s, _)| s.id == id).map(|(_, v)| *v) else {
            return;
        };
        match answer.get("configOptions").filter(|o| o.is_array()) {
            Some(options) if via == Via::ConfigOption => {
                self.replace_config_options(options);
            }
            _ => {
                if let Some((setting, _)) = self.items.iter_mut().find(|(s, _)| s.id == id) {
                    setting.current = value.to_owned();
                }
            }
        }
    }
}

/// What `settings` offer for `id` (its values), or which settings there are when none is
/// `id`: for the person who picked something else.
pub fn offered(settings: &[AgentSetting], id: &str) -> String {
    match settings.iter().find(|s| s.id == id) {
        Some(setting) => {
            let values: Vec<&str> = setting.choices.iter().map(|c| c.value.as_str()).collect();
            format!("{id} = {}", values.join(", "))
        }
        None if settings.is_empty() => "no settings".to_owned(),
        None => {
            let ids: Vec<&str> = settings.iter().map(|s| s.id.as_str()).collect();
            format!("the settings {}", ids.join(", "))
        }
    }
}

/// `settings` with `id` set to `value`, when it has that setting and value.
pub fn with_pick(settings: &[AgentSetting], id: &str, value: &str) -> Option<Vec<AgentSetting>> {
    let mut settings = settings.to_vec();
    let setting = settings.iter_mut().find(|s| s.id == id)?;
    if !setting.choices.iter().any(|c| c.value == value) {
        return None;
    }
    setting.current = value.to_owned();
    Some(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude_like() -> Value {
        json!({
            "sessionId": "s1",
            "modes": {"currentModeId": "default", "availableModes": [
                {"id": "default", "name": "Default", "description": "Asks before edits"},
                {"id": "plan", "name": "Plan Mode"}
            ]},
            "models": {"currentModelId": "sonnet", "availableModels": [
                {"modelId": "sonnet", "name": "Sonnet"}, {"modelId": "opus", "name": "Opus"}
            ]}
        })
    }

    #[test]
    fn modes_and_models_are_two_settings_set_their_own_way() {
        let mut settings = Settings::read(&claude_like());
        let list = settings.list();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].id, "mode");
        assert_eq!(list[0].current, "default");
        assert_eq!(list[0].choices[1].name, "Plan Mode");
        assert_eq!(list[1].choices[1].value, "opus");
        let (method, params) = settings.request("s1", "mode", "plan").expect("known");
        assert_eq!(method, "session/set_mode");
        assert_eq!(params, json!({"sessionId": "s1", "modeId": "plan"}));
        let (method, params) = settings.request("s1", "model", "opus").expect("known");
        assert_eq!(method, "session/set_model");
        assert_eq!(params["modelId"], "opus");
        assert!(settings.request("s1", "mode", "yolo").is_none());
        assert!(settings.request("s1", "effort", "high").is_none());
        settings.took("mode", "plan", &json!({}));
        assert_eq!(settings.list()[0].current, "plan");
        // The agent leaving plan mode itself.
        assert!(settings
            .update(&json!({"sessionUpdate": "current_mode_update", "currentModeId": "default"})));
        assert!(!settings
            .update(&json!({"sessionUpdate": "current_mode_update", "currentModeId": "default"})));
        assert_eq!(settings.list()[0].current, "default");
    }

    #[test]
    fn config_options_come_first_and_come_back_whole() {
        let mut answer = claude_like();
        answer["configOptions"] = json!([
            {"id": "mode", "name": "Mode", "category": "mode", "type": "select",
             "currentValue": "ask", "options": [{"value": "ask", "name": "Ask"}, {"value": "code", "name": "Code"}]},
            {"id": "model", "name": "Model", "category": "model", "type": "select",
             "currentValue": "a", "options": [
                {"group": "fast", "name": "Fast", "options": [{"value": "a", "name": "A"}]},
                {"group": "smart", "name": "Smart", "options": [{"value": "b", "name": "B"}]}
             ]},
            {"id": "later", "name": "A kind Memo does not know", "type": "slider", "currentValue": "1"}
        ]);
        let mut settings = Settings::read(&answer);
        let list = settings.list();
        assert_eq!(list.len(), 2, "{list:?}");
        assert_eq!(
            list[1]
                .choices
                .iter()
                .map(|c| c.value.as_str())
                .collect::<Vec<_>>(),
            ["a", "b"]
        );
        let (method, params) = settings.request("s1", "model", "b").expect("known");
        assert_eq!(method, "session/set_config_option");
        assert_eq!(
            params,
            json!({"sessionId": "s1", "configId": "model", "value": "b"})
        );
        // Its answer holds all of them: choosing a model may change what else is offered.
        settings.took(
            "model",
            "b",
            &json!({"configOptions": [
                {"id": "model", "name": "Model", "type": "select", "currentValue": "b",
                 "options": [{"value": "a", "name": "A"}, {"value": "b", "name": "B"}]}
            ]}),
        );
        assert_eq!(settings.list().len(), 1);
        assert_eq!(settings.list()[0].current, "b");
        assert!(
            settings.update(&json!({"sessionUpdate": "config_option_update", "configOptions": []}))
        );
        assert!(settings.list().is_empty());
    }

    #[test]
    fn modes_stay_beside_config_options_of_other_kinds() {
        // Memo's own agent: its models as config options, its approval modes as modes.
        let mut answer = claude_like();
        answer["configOptions"] = json!([
            {"id": "model", "name": "Model", "category": "model", "type": "select",
             "currentValue": "mock · m1", "options": [{"value": "mock · m1", "name": "mock · m1"}]}
        ]);
        let mut settings = Settings::read(&answer);
        let ids: Vec<String> = settings.list().into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["model", "mode"]);
        assert_eq!(
            settings.request("s1", "mode", "plan").expect("a mode").0,
            "session/set_mode"
        );
        settings.took("model", "mock · m1", &json!({"configOptions": []}));
        let ids: Vec<String> = settings.list().into_iter().map(|s| s.id).collect();
        assert_eq!(
            ids,
            ["mode"],
            "the modes outlive a new list of config options"
        );
    }

    #[test]
    fn an_agent_with_none_or_broken_ones_has_none() {
        assert!(Settings::read(&json!({"sessionId": "s"})).list().is_empty());
        assert!(
            Settings::read(&json!({"modes": {"currentModeId": "x", "availableModes": []}}))
                .list()
                .is_empty()
        );
        assert!(
            Settings::read(&json!({"modes": {"availableModes": [{"id": "x"}]}}))
                .list()
                .is_empty()
        );
        assert!(Settings::read(
            &json!({"configOptions": [{"id": "m", "options": [{"value": "a"}]}]})
        )
        .list()
        .is_empty());
    }

    #[test]
    fn a_pick_before_the_agent_runs_is_checked_against_what_it_last_offered() {
        let known = Settings::read(&claude_like()).list();
        let picked = with_pick(&known, "model", "opus").expect("offered");
        assert_eq!(picked[1].current, "opus");
        assert!(with_pick(&known, "model", "gpt-9").is_none());
        assert!(with_pick(&[], "model", "opus").is_none());
        assert_eq!(offered(&known, "mode"), "mode = default, plan");
        assert_eq!(offered(&known, "effort"), "the settings mode, model");
        assert_eq!(offered(&[], "effort"), "no settings");
    }
}
