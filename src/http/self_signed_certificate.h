#pragma once

// The self-signed certificate Orrery serves HTTPS with when the user gives none,
// as the Cosmos DB emulator does.

#include <string>

#include "common/status.h"

namespace orrery::http {

struct CertificateAndKey {
  std::string certificate_pem;  // "-----BEGIN CERTIFICATE-----..."
  std::string private_key_pem;  // PKCS#8, "-----BEGIN PRIVATE KEY-----..."
};

// Generates a fresh EC P-256 key and a self-signed X.509 v3 certificate for it:
// CN=localhost, subjectAltName DNS:localhost and IP:127.0.0.1, valid from one hour
// ago (clock skew) for ten years, random serial. Errors: Internal, with OpenSSL's
// reason. Thread-safe.
Result<CertificateAndKey> GenerateSelfSignedCertificate();

// Returns <dir>/cert.pem and <dir>/key.pem when both exist; otherwise generates a
// pair (creating `dir` if needed) and writes it there, key.pem with mode 0600.
// The files' contents are not validated here; loading them into a TLS context does.
// Errors: IoError "cannot read TLS certificate <path>: <reason>" (or "TLS key"),
// "cannot write <path>: <reason>"; Internal if generation fails.
Result<CertificateAndKey> LoadOrCreateSelfSignedCertificate(const std::string& dir);

}  // namespace orrery::http
