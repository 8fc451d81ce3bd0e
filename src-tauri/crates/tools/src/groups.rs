//! Tool groups offered on demand. Every definition travels with every request, and a
//! local model on a CPU reads them all again each time, so the groups a session rarely
//! needs (subagents, memory, the plan, the web) are not listed up front: one small tool,
//! [`LOAD_TOOLS`], names them and loads a group when the model asks, and a call to a tool
//! of a group not loaded yet runs anyway and loads its group. Loaded groups are listed
//! after every other tool, in the order they were loaded, so what a server has cached of
//! the request (the definitions before them) stays as it was. A resumed session loads
//! again the groups its history used ([`ToolGroups::load_used`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use memo_protocol::RiskLevel;
use serde::Deserialize;
use serde_json::json;

use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult, ToolSource};

/// The tool that loads a group.
pub const LOAD_TOOLS: &str = "load_tools";

/// A group as the session composes it: a name the model asks for, what it is for, and
/// the names of its tools.
#[derive(Debug, Clone, Copy)]
pub struct GroupSpec {
    pub name: &'static str,
    pub summary: &'static str,
    pub tools: &'static [&'static str],
}

struct Group {
    spec: GroupSpec,
    tools: Vec<Arc<dyn Tool>>,
}

#[derive(Default)]
struct Loaded {
    /// Group names in the order they were loaded.
    order: Vec<&'static str>,
}

/// The groups of one session: a [`ToolSource`] listing the loaded ones.
pub struct ToolGroups {
    groups: Vec<Group>,
    loaded: Mutex<Loaded>,
    generation: AtomicU64,
}

impl ToolGroups {
    fn lock(&self) -> std::sync::MutexGuard<'_, Loaded> {
        self.loaded.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Loads groups by name; returns those newly loaded, or the names it does not know.
    pub fn load(&self, names: &[String]) -> Result<Vec<&'static str>, Vec<String>> {
        let unknown: Vec<String> = names
            .iter()
            .filter(|n| !self.groups.iter().any(|g| g.spec.name == n.as_str()))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
        let mut loaded = self.lock();
        let mut added = Vec::new();
        for group in &self.groups {
            if names.iter().any(|n| n == group.spec.name)
                && !loaded.order.contains(&group.spec.name)
            {
                loaded.order.push(group.spec.name);
                added.push(group.spec.name);
            }
        }
        if !added.is_empty() {
            self.generation.fetch_add(1, Ordering::SeqCst);
        }
        Ok(added)
    }

    /// The group a tool belongs to.
    fn group_of(&self, tool: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.spec.tools.contains(&tool))
    }

    /// Loads, in order, the groups whose tools (or whose loading) the calls of an earlier
    /// run of the session named: `calls` are (tool name, argument text) in history order.
    pub fn load_used<'a>(&self, calls: impl IntoIterator<Item = (&'a str, &'a str)>) {
        for (name, args) in calls {
            if name == LOAD_TOOLS {
                if let Ok(input) = serde_json::from_str::<Input>(args) {
                    let _ = self.load(&input.groups);
                }
            } else if let Some(group) = self.group_of(name) {
                let _ = self.load(&[group.spec.name.to_owned()]);
            }
        }
    }

    pub fn loaded(&self) -> Vec<&'static str> {
        self.lock().order.clone()
    }

    fn description(&self) -> String {
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|g| format!("{} ({})", g.spec.name, g.spec.summary))
            .collect();
        format!(
            "Loads tools for: {}. Callable from your next step.",
            groups.join("; ")
        )
    }
}

impl ToolSource for ToolGroups {
    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        let loaded = self.lock();
        loaded
            .order
            .iter()
            .filter_map(|name| self.groups.iter().find(|g| g.spec.name == *name))
            .flat_map(|g| g.tools.iter().cloned())
            .collect()
    }

    /// A tool of any group, loaded or not: a call to one not loaded yet runs, and its
    /// group is listed from then on.
    fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        let group = self.group_of(name)?;
        let _ = self.load(&[group.spec.name.to_owned()]);
        group.tools.iter().find(|t| t.name() == name).cloned()
    }

    fn known(&self) -> Vec<Arc<dyn Tool>> {
        self.groups
            .iter()
            .flat_map(|g| g.tools.iter().cloned())
            .collect()
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    fn ready(&self) -> BoxFuture<'static, ()> {
        Box::pin(async {})
    }

    fn shutdown(&self) {
        for group in &self.groups {
            for tool in &group.tools {
                tool.shutdown();
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    groups: Vec<String>,
}

/// [`LOAD_TOOLS`]: loads groups of [`ToolGroups`].
pub struct LoadToolsTool {
    groups: Arc<ToolGroups>,
    description: String,
}

impl Tool for LoadToolsTool {
    fn name(&self) -> &str {
        LOAD_TOOLS
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> serde_json::Value {
        let names: Vec<&str> = self.groups.groups.iter().map(|g| g.spec.name).collect();
        json!({
            "type": "object",
            "properties": {
                "groups": {"type": "array", "items": {"type": "string", "enum": names}}
            },
            "required": ["groups"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn is_mutating(&self) -> bool {
        false
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let result = parse_args::<Input>(LOAD_TOOLS, args).and_then(|input| {
            match self.groups.load(&input.groups) {
                Err(unknown) => Err(ToolError::invalid_input(format!(
                    "no tool group {}; the groups are: {}",
                    unknown.join(", "),
                    self.groups
                        .groups
                        .iter()
                        .map(|g| g.spec.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
                Ok(_) => {
                    let listed: Vec<String> = input
                        .groups
                        .iter()
                        .filter_map(|n| {
                            self.groups
                                .groups
                                .iter()
                                .find(|g| g.spec.name == n.as_str())
                        })
                        .map(|g| format!("{}: {}", g.spec.name, g.spec.tools.join(", ")))
                        .collect();
                    Ok(ToolOutput::text(format!(
                        "Loaded {}. Call them from your next step.",
                        listed.join("; ")
                    )))
                }
            }
        });
        Box::pin(async move { result })
    }
}

impl crate::ToolRegistry {
    /// Takes the tools of `specs` out of the up-front list into groups loaded on demand,
    /// and adds [`LOAD_TOOLS`]. A group none of whose tools the registry has (turned off,
    /// or not part of this session) is left out; one left empty adds nothing.
    pub fn defer_groups(&mut self, specs: &[GroupSpec]) -> Option<Arc<ToolGroups>> {
        let mut groups = Vec::new();
        for spec in specs {
            let tools: Vec<Arc<dyn Tool>> = spec
                .tools
                .iter()
                .filter_map(|name| self.take_builtin(name))
                .collect();
            if !tools.is_empty() {
                groups.push(Group { spec: *spec, tools });
            }
        }
        if groups.is_empty() {
            return None;
        }
        let groups = Arc::new(ToolGroups {
            groups,
            loaded: Mutex::new(Loaded::default()),
            generation: AtomicU64::new(0),
        });
        let description = groups.description();
        self.register(Arc::new(LoadToolsTool {
            groups: groups.clone(),
            description,
        }));
        self.add_source(groups.clone());
        self.set_groups(groups.clone());
        Some(groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ToolProfile, ToolRegistry};

    const SPECS: &[GroupSpec] = &[
        GroupSpec {
            name: "plan",
            summary: "a plan",
            tools: &["update_plan"],
        },
        GroupSpec {
            name: "web",
            summary: "fetch",
            tools: &["webfetch"],
        },
        GroupSpec {
            name: "gone",
            summary: "turned off",
            tools: &["no_such_tool"],
        },
    ];

    fn names(registry: &ToolRegistry, profile: ToolProfile) -> Vec<String> {
        registry
            .specs_for(profile)
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn groups_are_listed_only_once_loaded_and_then_after_every_other_tool() {
        let mut registry = ToolRegistry::builtin();
        let groups = registry.defer_groups(SPECS).unwrap();
        let before = names(&registry, ToolProfile::Standard);
        assert!(before.contains(&LOAD_TOOLS.to_owned()));
        assert!(
            !before.iter().any(|n| n == "update_plan" || n == "webfetch"),
            "{before:?}"
        );
        // A group whose tools the session does not have is not offered.
        assert!(!registry
            .get(LOAD_TOOLS)
            .unwrap()
            .description()
            .contains("gone"));
        let generation = registry.generation();

        assert_eq!(groups.load(&["web".into()]).unwrap(), ["web"]);
        assert!(registry.generation() != generation);
        let after = names(&registry, ToolProfile::Standard);
        assert_eq!(after[..before.len()], before[..]);
        assert_eq!(after[before.len()..], ["webfetch"]);
        assert_eq!(groups.load(&["nope".into()]).unwrap_err(), ["nope"]);
        // The compact profile leaves the plan out up front, but lists it once loaded.
        assert!(!names(&registry, ToolProfile::Compact).contains(&"update_plan".to_owned()));
        groups.load(&["plan".into()]).unwrap();
        assert!(names(&registry, ToolProfile::Compact).contains(&"update_plan".to_owned()));
        // Their schemas are checked whether listed or not.
        let schemas: Vec<String> = registry.schemas().into_iter().map(|(n, _)| n).collect();
        assert!(schemas.contains(&"webfetch".to_owned()));
    }

    #[test]
    fn a_call_to_a_tool_not_loaded_runs_and_loads_its_group_and_history_loads_in_order() {
        let mut registry = ToolRegistry::builtin();
        let groups = registry.defer_groups(SPECS).unwrap();
        assert!(registry.get("update_plan").is_some());
        assert_eq!(groups.loaded(), ["plan"]);

        let mut again = ToolRegistry::builtin();
        let resumed = again.defer_groups(SPECS).unwrap();
        resumed.load_used([
            ("read_file", "{}"),
            (LOAD_TOOLS, r#"{"groups":["web"]}"#),
            ("update_plan", "{}"),
        ]);
        assert_eq!(resumed.loaded(), ["web", "plan"]);
    }

    #[test]
    fn load_tools_says_what_it_loaded_and_refuses_an_unknown_group() {
        let mut registry = ToolRegistry::builtin();
        registry.defer_groups(SPECS).unwrap();
        let tool = registry.get(LOAD_TOOLS).unwrap();
        let ctx = ToolContext::for_workspace(std::env::temp_dir());
        let out =
            futures::executor::block_on(tool.run(ctx.clone(), json!({"groups": ["web"]}))).unwrap();
        assert_eq!(
            out.content,
            "Loaded web: webfetch. Call them from your next step."
        );
        let err =
            futures::executor::block_on(tool.run(ctx, json!({"groups": ["gone"]}))).unwrap_err();
        assert!(
            err.to_string()
                .contains("no tool group gone; the groups are: plan, web"),
            "{err}"
        );
    }
}
