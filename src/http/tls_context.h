#pragma once

// The server side TLS configuration: protocol versions and the certificate.

#include <memory>

#include "common/status.h"
#include "http/beast.h"
#include "http/server.h"

namespace orrery::http {

// A TLS 1.2+ server context with options.tls_cert_file and options.tls_key_file when
// both are set, else with a self-signed certificate, kept in
// options.generated_cert_dir when that is set (see self_signed_certificate.h).
// Errors: IoError "cannot read TLS certificate <path>: <reason>" (or "TLS key") for
// missing, unreadable or invalid files, or a key that does not match the
// certificate; Internal if generation fails.
// `certificate_pem`, when given, receives the certificate (PEM) the context serves.
Result<std::unique_ptr<ssl::context>> MakeTlsContext(const ServerOptions& options,
                                                     std::string* certificate_pem = nullptr);

}  // namespace orrery::http
