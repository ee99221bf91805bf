#include "http/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "http/pem_file.h"
#include "http/self_signed_certificate.h"

namespace orrery::http {

namespace {

struct PemSource {
  CertificateAndKey pem;
  // Shown in errors; the generated in-memory certificate has no path.
  std::string certificate_path;
  std::string key_path;
};

Result<PemSource> LoadPem(const ServerOptions& options) {
  if (!options.tls_cert_file.empty() && !options.tls_key_file.empty()) {
    ORRERY_ASSIGN_OR_RETURN(std::string certificate,
                            ReadPemFile(options.tls_cert_file, "TLS certificate"));
    ORRERY_ASSIGN_OR_RETURN(std::string key, ReadPemFile(options.tls_key_file, "TLS key"));
    return PemSource{
        {std::move(certificate), std::move(key)}, options.tls_cert_file, options.tls_key_file};
  }
  if (!options.generated_cert_dir.empty()) {
    ORRERY_ASSIGN_OR_RETURN(CertificateAndKey pem,
                            LoadOrCreateSelfSignedCertificate(options.generated_cert_dir));
    return PemSource{std::move(pem), options.generated_cert_dir + "/cert.pem",
                     options.generated_cert_dir + "/key.pem"};
  }
  ORRERY_ASSIGN_OR_RETURN(CertificateAndKey pem, GenerateSelfSignedCertificate());
  return PemSource{std::move(pem), "(generated)", "(generated)"};
}

Status UsePem(const PemSource& source, ssl::context& context) {
  error_code ec;
  context.use_certificate_chain(asio::buffer(source.pem.certificate_pem), ec);
  if (ec) {
    return Status::IoError("cannot read TLS certificate " + source.certificate_path + ": " +
                           ec.message());
  }
  context.use_private_key(asio::buffer(source.pem.private_key_pem), ssl::context::pem, ec);
  if (ec) {
    return Status::IoError("cannot read TLS key " + source.key_path + ": " + ec.message());
  }
  if (SSL_CTX_check_private_key(context.native_handle()) != 1) {
    ERR_clear_error();  // the reason is stated below; keep the thread's queue clean
    return Status::IoError("cannot read TLS key " + source.key_path +
                           ": key does not match the certificate " + source.certificate_path);
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<ssl::context>> MakeTlsContext(const ServerOptions& options,
                                                     std::string* certificate_pem) {
  ORRERY_ASSIGN_OR_RETURN(PemSource source, LoadPem(options));
  auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
  // TLS 1.0 and 1.1 are deprecated (RFC 8996); every Cosmos DB SDK speaks 1.2+.
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  context->set_options(ssl::context::default_workarounds | ssl::context::single_dh_use);
  ORRERY_RETURN_IF_ERROR(UsePem(source, *context));
  if (certificate_pem != nullptr) *certificate_pem = source.pem.certificate_pem;
  return context;
}

}  // namespace orrery::http
