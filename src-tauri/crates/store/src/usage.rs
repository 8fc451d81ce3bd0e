//! Token usage per model call (with cost when prices are configured) and approvals.

use std::collections::HashMap;

use memo_protocol::{ApprovalRequest, ReviewDecision, SessionId, TokenUsage};
use rusqlite::params;

use crate::{from_sql_int, Result, Store, StoreError};

/// USD per million tokens. Reasoning tokens are billed as output (they are part of it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPrice {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// Price of input tokens served from the prompt cache; `None` bills them as input.
    pub cached_input_per_mtok: Option<f64>,
}

impl ModelPrice {
    pub fn cost_usd(&self, usage: &TokenUsage) -> f64 {
        let cached = usage.cached_input_tokens.min(usage.input_tokens);
        let uncached = usage.input_tokens - cached;
        let cached_price = self.cached_input_per_mtok.unwrap_or(self.input_per_mtok);
        (uncached as f64 * self.input_per_mtok
            + cached as f64 * cached_price
            + usage.output_tokens as f64 * self.output_per_mtok)
            / 1_000_000.0
    }
}

/// Prices by (provider, model), as configured; the cost of a call is fixed when it is
/// recorded, so a later price change does not rewrite history.
#[derive(Debug, Clone, Default)]
pub struct PriceTable {
    prices: HashMap<(String, String), ModelPrice>,
}

impl PriceTable {
    pub fn set(&mut self, provider: &str, model: &str, price: Option<ModelPrice>) {
        let key = (provider.to_owned(), model.to_owned());
        match price {
            Some(p) => {
                self.prices.insert(key, p);
            }
            None => {
                self.prices.remove(&key);
            }
        }
    }

    pub fn get(&self, provider: &str, model: &str) -> Option<ModelPrice> {
        self.prices
            .get(&(provider.to_owned(), model.to_owned()))
            .copied()
    }

    pub(crate) fn cost_usd(&self, provider: &str, model: &str, usage: &TokenUsage) -> Option<f64> {
        self.get(provider, model).map(|p| p.cost_usd(usage))
    }
}

/// Usage of one (provider, model) pair.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelUsage {
    pub provider: String,
    pub model: String,
    /// Model calls made.
    pub calls: u64,
    pub tokens: TokenUsage,
    /// Sum over the calls that had a price; `None` when none had one.
    pub cost_usd: Option<f64>,
    /// Calls recorded without a price (their cost is unknown, not zero).
    pub unpriced_calls: u64,
}

/// Usage of a session (or of everything), per model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageSummary {
    pub by_model: Vec<ModelUsage>,
}

impl UsageSummary {
    pub fn tokens(&self) -> TokenUsage {
        let mut total = TokenUsage::default();
        for m in &self.by_model {
            total.add(&m.tokens);
        }
        total
    }

    pub fn cost_usd(&self) -> Option<f64> {
        let priced: Vec<f64> = self.by_model.iter().filter_map(|m| m.cost_usd).collect();
        (!priced.is_empty()).then(|| priced.iter().sum())
    }

    pub fn calls(&self) -> u64 {
        self.by_model.iter().map(|m| m.calls).sum()
    }
}

/// One approval question and, once answered, its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRecord {
    pub session_id: SessionId,
    pub requested_seq: u64,
    pub request: ApprovalRequest,
    pub decision: Option<ReviewDecision>,
    pub resolved_seq: Option<u64>,
}

impl Store {
    /// Sets (or with `None` clears) the price of a model; applies to calls recorded from
    /// now on.
    pub fn set_price(&self, provider: &str, model: &str, price: Option<ModelPrice>) {
        self.prices().set(provider, model, price);
    }

    /// Token usage and cost per model; of one session, or of every session with `None`.
    pub fn usage_summary(&self, session: Option<&SessionId>) -> Result<UsageSummary> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT provider, model, count(*), sum(input_tokens), sum(output_tokens), \
             sum(cached_input_tokens), sum(reasoning_tokens), sum(cost_usd), \
             sum(cost_usd IS NULL) \
             FROM usage WHERE ?1 IS NULL OR session_id = ?1 \
             GROUP BY provider, model ORDER BY provider, model",
        )?;
        let rows = stmt.query_map(params![session.map(SessionId::as_str)], |r| {
            Ok(ModelUsage {
                provider: r.get(0)?,
                model: r.get(1)?,
                calls: from_sql_int(r.get(2)?),
                tokens: TokenUsage {
                    input_tokens: from_sql_int(r.get(3)?),
                    output_tokens: from_sql_int(r.get(4)?),
                    cached_input_tokens: from_sql_int(r.get(5)?),
                    reasoning_tokens: from_sql_int(r.get(6)?),
                },
                cost_usd: r.get(7)?,
                unpriced_calls: from_sql_int(r.get(8)?),
            })
        })?;
        Ok(UsageSummary {
            by_model: rows.collect::<rusqlite::Result<_>>()?,
        })
    }

    /// The newest model call's usage of a session: its input and output are what the
    /// conversation weighs now.
    pub fn last_usage(&self, session: &SessionId) -> Result<Option<TokenUsage>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT input_tokens, output_tokens, cached_input_tokens, reasoning_tokens              FROM usage WHERE session_id = ?1 ORDER BY seq DESC LIMIT 1",
        )?;
        let mut rows = stmt.query_map(params![session.as_str()], |r| {
            Ok(TokenUsage {
                input_tokens: from_sql_int(r.get(0)?),
                output_tokens: from_sql_int(r.get(1)?),
                cached_input_tokens: from_sql_int(r.get(2)?),
                reasoning_tokens: from_sql_int(r.get(3)?),
            })
        })?;
        Ok(rows.next().transpose()?)
    }

    /// Every approval of a session, in the order they were asked.
    pub fn approvals(&self, session: &SessionId) -> Result<Vec<ApprovalRecord>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT requested_seq, request, decision, resolved_seq FROM approvals \
             WHERE session_id = ?1 ORDER BY requested_seq",
        )?;
        let rows = stmt.query_map([session.as_str()], |r| {
            Ok((
                from_sql_int(r.get(0)?),
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<i64>>(3)?.map(from_sql_int),
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, request, decision, resolved_seq) = row?;
            let corrupt = |source| StoreError::CorruptEvent {
                session: session.clone(),
                seq,
                source,
            };
            out.push(ApprovalRecord {
                session_id: session.clone(),
                requested_seq: seq,
                request: serde_json::from_str(&request).map_err(corrupt)?,
                decision: decision
                    .map(|d| serde_json::from_str(&d))
                    .transpose()
                    .map_err(corrupt)?,
                resolved_seq,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_bills_cached_input_at_its_own_price() {
        let price = ModelPrice {
            input_per_mtok: 2.0,
            output_per_mtok: 8.0,
            cached_input_per_mtok: Some(0.5),
        };
        let usage = TokenUsage {
            input_tokens: 1_000_000,
            output_tokens: 500_000,
            cached_input_tokens: 400_000,
            reasoning_tokens: 100_000,
        };
        // 600k uncached * 2 + 400k cached * 0.5 + 500k output * 8, per million.
        assert!((price.cost_usd(&usage) - (1.2 + 0.2 + 4.0)).abs() < 1e-9);
        let no_cache_price = ModelPrice {
            cached_input_per_mtok: None,
            ..price
        };
        assert!((no_cache_price.cost_usd(&usage) - (2.0 + 4.0)).abs() < 1e-9);
    }

    #[test]
    fn absurd_cached_counts_do_not_underflow() {
        let price = ModelPrice {
            input_per_mtok: 1.0,
            output_per_mtok: 1.0,
            cached_input_per_mtok: Some(0.0),
        };
        let usage = TokenUsage {
            input_tokens: 10,
            cached_input_tokens: 50,
            ..TokenUsage::default()
        };
        assert_eq!(price.cost_usd(&usage), 0.0);
    }
}
