//! TLS for the fake server, made at startup: a throwaway CA signs a leaf certificate for
//! `127.0.0.1` and `localhost`. Kubeconfigs carry the CA as `certificate-authority-data`, so
//! a client verifies the server exactly as it would a real cluster's (no `insecure-skip`).
//!
//! Validity runs from 1975 to 4096 (rcgen's defaults): tests run under faked clocks too.

use crate::error::TlsError;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;

/// What a TLS server needs: the acceptor, and the CA (PEM) clients must trust.
#[derive(Clone)]
pub(crate) struct Tls {
    pub acceptor: TlsAcceptor,
    pub ca_pem: String,
}

fn err(what: &'static str) -> impl FnOnce(rcgen::Error) -> TlsError {
    move |source| TlsError::Certificate { what, source }
}

/// A fresh CA and a server certificate signed by it.
pub(crate) fn generate() -> Result<Tls, TlsError> {
    let ca_key = KeyPair::generate().map_err(err("CA key"))?;
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(err("CA"))?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "fake-apiserver CA");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca = CertifiedIssuer::self_signed(ca_params, ca_key).map_err(err("CA"))?;

    let leaf_key = KeyPair::generate().map_err(err("server key"))?;
    // Strings that parse as IP addresses become IP SANs: the kubeconfig names 127.0.0.1.
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
        .map_err(err("server certificate"))?;
    leaf.distinguished_name
        .push(DnType::CommonName, "fake-apiserver");
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let leaf_cert = leaf
        .signed_by(&leaf_key, &ca)
        .map_err(err("server certificate"))?;

    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Config)?
        .with_no_client_auth()
        .with_single_cert(vec![leaf_cert.der().clone(), ca.der().clone()], key)
        .map_err(TlsError::Config)?;
    Ok(Tls {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        ca_pem: ca.pem(),
    })
}
