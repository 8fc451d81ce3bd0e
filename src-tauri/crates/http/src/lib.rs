//! The HTTP client setup every crate builds from. One reqwest (the MCP SDK needs 0.13),
//! TLS by rustls with the ring provider (the crypto the rest of the build already has;
//! reqwest's own default would add aws-lc), the system's certificate store. reqwest built
//! this way refuses to make a client until a provider is installed: [`builder`] installs
//! it first, so no client is ever built without it.

use std::sync::Once;

pub use reqwest;

/// A client builder, with the process's TLS provider in place.
pub fn builder() -> reqwest::ClientBuilder {
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        // Fails only when another provider is already installed, which is just as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}

/// A client with reqwest's defaults (no timeouts): for tests and one-off requests.
pub fn client() -> Result<reqwest::Client, reqwest::Error> {
    builder().build()
}

#[cfg(test)]
mod tests {
    #[test]
    fn clients_can_be_built_for_plain_and_tls_addresses() {
        let client = super::client().unwrap();
        // Building a request needs no network; the client exists with TLS set up.
        assert!(client.get("https://example.invalid/").build().is_ok());
        assert!(super::builder().https_only(true).build().is_ok());
    }
}
