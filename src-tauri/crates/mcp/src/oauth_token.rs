//! Token endpoint requests: how the client authenticates there (none, `client_secret_basic`,
//! `client_secret_post`, `private_key_jwt`), and the grants that need no browser:
//! client credentials (RFC 6749 §4.4, SEP-1046) for a machine client with its own secret
//! or key.

use std::sync::Arc;

use base64::Engine as _;
use rand::distr::{Alphanumeric, SampleString};
use ring::rand::SystemRandom;
use ring::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use serde::Deserialize;
use serde_json::json;

use crate::error::McpError;
use crate::oauth_discovery::{discover_with, select_scopes};
use crate::oauth_store::{now_secs, StoredTokens};

/// How the client authenticates at the token endpoint, by its RFC 8414 name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAuthMethod {
    /// A public client: only `client_id` in the form.
    None,
    ClientSecretBasic,
    ClientSecretPost,
    /// A JWT signed with the client's key (RFC 7523), for client credentials.
    PrivateKeyJwt,
}

impl TokenAuthMethod {
    pub fn name(self) -> &'static str {
        match self {
            TokenAuthMethod::None => "none",
            TokenAuthMethod::ClientSecretBasic => "client_secret_basic",
            TokenAuthMethod::ClientSecretPost => "client_secret_post",
            TokenAuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "none" => TokenAuthMethod::None,
            "client_secret_basic" => TokenAuthMethod::ClientSecretBasic,
            "client_secret_post" => TokenAuthMethod::ClientSecretPost,
            "private_key_jwt" => TokenAuthMethod::PrivateKeyJwt,
            _ => return None,
        })
    }

    /// The method for a client with or without a secret: the one its registration named,
    /// else the first of basic, post the server lists; a server that lists none takes
    /// basic (RFC 8414's default).
    pub fn choose(
        has_secret: bool,
        registered: Option<&str>,
        supported: Option<&[String]>,
    ) -> Self {
        if !has_secret {
            return TokenAuthMethod::None;
        }
        if let Some(method) = registered.and_then(TokenAuthMethod::parse) {
            if method != TokenAuthMethod::PrivateKeyJwt {
                return method;
            }
        }
        let Some(supported) = supported else {
            return TokenAuthMethod::ClientSecretBasic;
        };
        let offers = |m: TokenAuthMethod| supported.iter().any(|s| s == m.name());
        if offers(TokenAuthMethod::ClientSecretBasic) {
            TokenAuthMethod::ClientSecretBasic
        } else {
            // Either listed, or the server lists neither and the secret in the form is
            // the form it is most likely to ignore harmlessly.
            TokenAuthMethod::ClientSecretPost
        }
    }
}

/// An EC P-256 private key that signs client assertions (ES256).
pub struct SigningKey(EcdsaKeyPair);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

impl SigningKey {
    /// From a PEM `PRIVATE KEY` (PKCS#8) block.
    pub fn from_pem(pem: &str) -> Result<SigningKey, McpError> {
        let body: String = pem
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("-----"))
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body)
            .map_err(|e| McpError::OAuth(format!("the private key is not PEM: {e}")))?;
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der, &SystemRandom::new())
            .map(SigningKey)
            .map_err(|e| {
                McpError::OAuth(format!(
                    "the private key is not a PKCS#8 EC P-256 key with its public key: {e}"
                ))
            })
    }

    /// A compact JWS (ES256) of `claims`.
    fn sign(&self, claims: &serde_json::Value) -> Result<String, McpError> {
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let header = json!({"alg": "ES256", "typ": "JWT"});
        let input = format!(
            "{}.{}",
            b64(header.to_string().as_bytes()),
            b64(claims.to_string().as_bytes())
        );
        let signature = self
            .0
            .sign(&SystemRandom::new(), input.as_bytes())
            .map_err(|_| McpError::OAuth("signing the client assertion failed".into()))?;
        Ok(format!("{input}.{}", b64(signature.as_ref())))
    }

    #[cfg(test)]
    fn public_key(&self) -> Vec<u8> {
        use ring::signature::KeyPair as _;
        self.0.public_key().as_ref().to_vec()
    }
}

/// Who the client is at the token endpoint and how it proves it.
#[derive(Clone)]
pub(crate) struct ClientAuth {
    pub client_id: String,
    pub secret: Option<String>,
    pub method: TokenAuthMethod,
    /// For `private_key_jwt`: the key, and the audience of its assertions (the
    /// authorization server's issuer).
    pub key: Option<(Arc<SigningKey>, String)>,
}

impl ClientAuth {
    fn apply(
        &self,
        request: reqwest::RequestBuilder,
        form: &mut Vec<(&'static str, String)>,
    ) -> Result<reqwest::RequestBuilder, McpError> {
        let secret = || self.secret.clone().unwrap_or_default();
        Ok(match self.method {
            TokenAuthMethod::None => {
                form.push(("client_id", self.client_id.clone()));
                request
            }
            TokenAuthMethod::ClientSecretPost => {
                form.push(("client_id", self.client_id.clone()));
                form.push(("client_secret", secret()));
                request
            }
            TokenAuthMethod::ClientSecretBasic => {
                // RFC 6749 §2.3.1: both parts form-encoded before they are joined.
                let encode = |s: &str| {
                    url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>()
                };
                let pair = format!("{}:{}", encode(&self.client_id), encode(&secret()));
                let value = base64::engine::general_purpose::STANDARD.encode(pair);
                request.header("authorization", format!("Basic {value}"))
            }
            TokenAuthMethod::PrivateKeyJwt => {
                let (key, audience) = self
                    .key
                    .as_ref()
                    .ok_or_else(|| McpError::OAuth("private_key_jwt needs a private key".into()))?;
                let now = now_secs();
                let assertion = key.sign(&json!({
                    "iss": self.client_id,
                    "sub": self.client_id,
                    "aud": audience,
                    "iat": now,
                    "exp": now + 300,
                    "jti": Alphanumeric.sample_string(&mut rand::rng(), 24),
                }))?;
                form.push(("client_id", self.client_id.clone()));
                form.push((
                    "client_assertion_type",
                    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".into(),
                ));
                form.push(("client_assertion", assertion));
                request
            }
        })
    }
}

#[derive(Deserialize)]
pub(crate) struct TokenResponse {
    pub access_token: String,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub expires_in: Option<u64>,
    #[serde(default)]
    pub scope: Option<String>,
}

/// POSTs a grant to a token endpoint as `client`; an OAuth error response becomes its
/// `error` code and description.
pub(crate) async fn token_request(
    http: &reqwest::Client,
    endpoint: &str,
    grant: &[(&'static str, String)],
    client: &ClientAuth,
) -> Result<TokenResponse, McpError> {
    let mut form = grant.to_vec();
    let request = client.apply(http.post(endpoint), &mut form)?;
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().map(|(k, v)| (*k, v.as_str())))
        .finish();
    let response = request
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(body)
        .send()
        .await?;
    let status = response.status();
    let text = response.text().await?;
    if !status.is_success() {
        let detail: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let code = detail["error"].as_str().unwrap_or("error");
        let description = detail["error_description"].as_str().unwrap_or("");
        return Err(McpError::OAuth(format!(
            "token endpoint answered {status}: {code} {description}"
        )));
    }
    serde_json::from_str(&text)
        .map_err(|e| McpError::OAuth(format!("unreadable token response: {e}")))
}

/// A client that gets tokens without a browser: with its own credentials (a secret, or
/// a key for `private_key_jwt`), by the grant it is configured for.
#[derive(Clone)]
pub struct MachineClient {
    pub client_id: String,
    pub secret: Option<String>,
    pub key: Option<Arc<SigningKey>>,
    /// Scopes from the server's config, asked for besides those the server names.
    pub scopes: Vec<String>,
    pub grant: MachineGrant,
}

/// The grants that need no browser.
#[derive(Clone)]
pub enum MachineGrant {
    /// Client credentials (RFC 6749 §4.4): the client acts for itself.
    ClientCredentials,
    /// Cross-app access (SEP-990, enterprise-managed authorization): the user's ID token
    /// from the enterprise IdP is exchanged there for an ID-JAG (RFC 8693), which the
    /// authorization server takes as a JWT bearer grant (RFC 7523).
    CrossAppAccess {
        idp_token_endpoint: String,
        idp_client_id: String,
        id_token: String,
    },
}

const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";

/// A token for `server_url` by the client's grant, from the authorization server the
/// server's metadata names (`challenge`: its 401, when there was one).
pub(crate) async fn client_credentials(
    http: &reqwest::Client,
    server_url: &str,
    client: &MachineClient,
    challenge: Option<&str>,
    held_scope: Option<&str>,
) -> Result<StoredTokens, McpError> {
    let discovery = discover_with(http, server_url, challenge).await?;
    let mut scopes = select_scopes(&client.scopes, &discovery, held_scope);
    // There is no refresh token to ask for: the credentials get the next token.
    scopes.retain(|s| s != "offline_access");
    let metadata = &discovery.metadata;
    let method = match client.key {
        Some(_) => TokenAuthMethod::PrivateKeyJwt,
        None => TokenAuthMethod::choose(
            client.secret.is_some(),
            None,
            metadata.token_endpoint_auth_methods_supported.as_deref(),
        ),
    };
    // RFC 7523bis: a client assertion's audience is the authorization server's issuer.
    let audience = metadata
        .issuer
        .clone()
        .unwrap_or_else(|| metadata.token_endpoint.clone());
    let auth = ClientAuth {
        client_id: client.client_id.clone(),
        secret: client.secret.clone(),
        method,
        key: client.key.clone().map(|k| (k, audience)),
    };
    let mut grant = match &client.grant {
        MachineGrant::ClientCredentials => vec![
            ("grant_type", "client_credentials".to_owned()),
            ("resource", server_url.to_owned()),
        ],
        MachineGrant::CrossAppAccess {
            idp_token_endpoint,
            idp_client_id,
            id_token,
        } => {
            // The IdP issues the grant for this authorization server (its issuer) and
            // this resource; the authorization server checks both.
            let issuer = metadata.issuer.clone().ok_or_else(|| {
                McpError::OAuth("the authorization server's metadata names no issuer".into())
            })?;
            let mut exchange = vec![
                ("grant_type", TOKEN_EXCHANGE.to_owned()),
                ("requested_token_type", ID_JAG.to_owned()),
                ("audience", issuer),
                ("resource", server_url.to_owned()),
                ("subject_token", id_token.clone()),
                ("subject_token_type", ID_TOKEN.to_owned()),
            ];
            if !scopes.is_empty() {
                exchange.push(("scope", scopes.join(" ")));
            }
            let idp_client = ClientAuth {
                client_id: idp_client_id.clone(),
                secret: None,
                method: TokenAuthMethod::None,
                key: None,
            };
            let jag = token_request(http, idp_token_endpoint, &exchange, &idp_client)
                .await
                .map_err(|e| McpError::OAuth(format!("the identity provider: {e}")))?;
            vec![
                ("grant_type", JWT_BEARER.to_owned()),
                ("assertion", jag.access_token),
            ]
        }
    };
    if !scopes.is_empty() {
        grant.push(("scope", scopes.join(" ")));
    }
    let response = token_request(http, &metadata.token_endpoint, &grant, &auth).await?;
    Ok(StoredTokens {
        resource: server_url.to_owned(),
        access_token: response.access_token,
        refresh_token: response.refresh_token,
        expires_at: response.expires_in.map(|s| now_secs() + s),
        token_endpoint: metadata.token_endpoint.clone(),
        client_id: client.client_id.clone(),
        client_secret: client.secret.clone(),
        scope: response
            .scope
            .or_else(|| (!scopes.is_empty()).then(|| scopes.join(" "))),
        token_endpoint_auth_method: Some(method.name().to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_auth_method_follows_registration_then_server_support() {
        type M = TokenAuthMethod;
        let choose = M::choose;
        assert_eq!(choose(false, Some("client_secret_basic"), None), M::None);
        assert_eq!(
            choose(true, Some("client_secret_post"), None),
            M::ClientSecretPost
        );
        assert_eq!(choose(true, None, None), M::ClientSecretBasic);
        let both = list(&["client_secret_post", "client_secret_basic"]);
        assert_eq!(choose(true, None, Some(&both)), M::ClientSecretBasic);
        let post = list(&["client_secret_post"]);
        assert_eq!(choose(true, None, Some(&post)), M::ClientSecretPost);
        let none = list(&["none"]);
        assert_eq!(choose(true, None, Some(&none)), M::ClientSecretPost);
    }

    #[test]
    fn basic_auth_form_encodes_id_and_secret() {
        let client = ClientAuth {
            client_id: "id:1".into(),
            secret: Some("s p&".into()),
            method: TokenAuthMethod::ClientSecretBasic,
            key: None,
        };
        let mut form = Vec::new();
        let request = client
            .apply(
                memo_http::client()
                    .unwrap()
                    .post("http://127.0.0.1:1/token"),
                &mut form,
            )
            .unwrap()
            .build()
            .unwrap();
        let header = request.headers()["authorization"].to_str().unwrap();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(header.strip_prefix("Basic ").unwrap())
            .unwrap();
        assert_eq!(String::from_utf8(decoded).unwrap(), "id%3A1:s+p%26");
        assert!(form.is_empty(), "no credentials in the body with basic");
    }

    #[test]
    fn client_assertions_are_es256_jwts_verifiable_with_the_public_key() {
        // A fresh P-256 key, as a PEM block like the ones users configure.
        let pkcs8 =
            EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
                .unwrap();
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref())
        );
        let key = Arc::new(SigningKey::from_pem(&pem).unwrap());
        let client = ClientAuth {
            client_id: "machine".into(),
            secret: None,
            method: TokenAuthMethod::PrivateKeyJwt,
            key: Some((key.clone(), "http://127.0.0.1:9/".into())),
        };
        let mut form = Vec::new();
        let _unsent = client
            .apply(
                memo_http::client()
                    .unwrap()
                    .post("http://127.0.0.1:1/token"),
                &mut form,
            )
            .unwrap();
        let assertion = &form
            .iter()
            .find(|(k, _)| *k == "client_assertion")
            .unwrap()
            .1;
        let parts: Vec<&str> = assertion.split('.').collect();
        assert_eq!(parts.len(), 3);
        let decode = |s: &str| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(s)
                .unwrap()
        };
        let claims: serde_json::Value = serde_json::from_slice(&decode(parts[1])).unwrap();
        assert_eq!(claims["iss"], "machine");
        assert_eq!(claims["sub"], "machine");
        assert_eq!(claims["aud"], "http://127.0.0.1:9/");
        let public = ring::signature::UnparsedPublicKey::new(
            &ring::signature::ECDSA_P256_SHA256_FIXED,
            key.public_key(),
        );
        let signed = format!("{}.{}", parts[0], parts[1]);
        public.verify(signed.as_bytes(), &decode(parts[2])).unwrap();
        assert!(SigningKey::from_pem(
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        )
        .is_err());
    }
}
