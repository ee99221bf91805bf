#include "http/self_signed_certificate.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>
#include <system_error>

#include "http/pem_file.h"

namespace orrery::http {

namespace {

constexpr long kSecondsPerDay = 24L * 60 * 60;
constexpr int kValidDays = 3650;
// Back-dating by an hour keeps a certificate generated on one machine valid on a
// client whose clock runs slightly behind.
constexpr long kBackdateSeconds = 60L * 60;
// Below 160 bits so the DER integer stays within RFC 5280's 20 octets once positive.
constexpr int kSerialBits = 159;

// A certificate for a client that connects to "localhost" or "127.0.0.1", as the
// SDKs do against the emulator. No keyUsage: OpenSSL treats a certificate whose
// keyUsage lacks keyCertSign as not self-signed, and a user who adds it to a trust
// store would then still see "unable to get local issuer certificate".
constexpr std::pair<int, const char*> kExtensions[] = {
    {NID_basic_constraints, "critical,CA:FALSE"},
    {NID_subject_key_identifier, "hash"},
    {NID_ext_key_usage, "serverAuth"},
    {NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1"},
};

struct OpenSslDeleter {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
template <typename T>
using OpenSslPtr = std::unique_ptr<T, OpenSslDeleter>;

// Turns OpenSSL's error queue into a Status and empties the queue, so that a later,
// unrelated failure on this thread does not report this one.
Status OpenSslError(std::string_view what) {
  std::string message = "cannot generate TLS certificate: " + std::string(what);
  const unsigned long code = ERR_get_error();
  if (code != 0) {
    char reason[256];
    ERR_error_string_n(code, reason, sizeof(reason));
    message += ": ";
    message += reason;
  }
  ERR_clear_error();
  return Status::Internal(std::move(message));
}

Status SetRandomSerial(X509* certificate) {
  OpenSslPtr<BIGNUM> serial(BN_new());
  if (serial == nullptr ||
      BN_rand(serial.get(), kSerialBits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) != 1 ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate)) == nullptr) {
    return OpenSslError("serial number");
  }
  return Status::Ok();
}

Status SetNameAndValidity(X509* certificate) {
  X509_NAME* name = X509_get_subject_name(certificate);
  const auto* common_name = reinterpret_cast<const unsigned char*>("localhost");
  if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, common_name, -1, -1, 0) != 1 ||
      X509_set_issuer_name(certificate, name) != 1) {
    return OpenSslError("subject name");
  }
  if (X509_gmtime_adj(X509_getm_notBefore(certificate), -kBackdateSeconds) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(certificate), kValidDays * kSecondsPerDay) == nullptr) {
    return OpenSslError("validity period");
  }
  return Status::Ok();
}

Status AddExtensions(X509* certificate) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
  for (const auto& [nid, value] : kExtensions) {
    OpenSslPtr<X509_EXTENSION> extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    if (extension == nullptr || X509_add_ext(certificate, extension.get(), -1) != 1) {
      return OpenSslError(value);
    }
  }
  return Status::Ok();
}

Result<std::string> ToPem(const std::function<int(BIO*)>& write) {
  OpenSslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || write(bio.get()) != 1) {
    return OpenSslError("PEM encoding");
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

Result<CertificateAndKey> EncodePem(EVP_PKEY* key, X509* certificate) {
  ORRERY_ASSIGN_OR_RETURN(std::string certificate_pem,
                          ToPem([&](BIO* bio) { return PEM_write_bio_X509(bio, certificate); }));
  ORRERY_ASSIGN_OR_RETURN(std::string key_pem, ToPem([&](BIO* bio) {
                            return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr,
                                                            nullptr);
                          }));
  return CertificateAndKey{std::move(certificate_pem), std::move(key_pem)};
}

}  // namespace

Result<CertificateAndKey> GenerateSelfSignedCertificate() {
  OpenSslPtr<EVP_PKEY> key(EVP_EC_gen("P-256"));
  if (key == nullptr) {
    return OpenSslError("EC P-256 key");
  }
  OpenSslPtr<X509> certificate(X509_new());
  if (certificate == nullptr || X509_set_version(certificate.get(), X509_VERSION_3) != 1 ||
      X509_set_pubkey(certificate.get(), key.get()) != 1) {
    return OpenSslError("certificate");
  }
  ORRERY_RETURN_IF_ERROR(SetRandomSerial(certificate.get()));
  ORRERY_RETURN_IF_ERROR(SetNameAndValidity(certificate.get()));
  ORRERY_RETURN_IF_ERROR(AddExtensions(certificate.get()));
  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) {
    return OpenSslError("signature");
  }
  return EncodePem(key.get(), certificate.get());
}

Result<CertificateAndKey> LoadOrCreateSelfSignedCertificate(const std::string& dir) {
  const std::filesystem::path directory(dir);
  const std::string certificate_path = (directory / "cert.pem").string();
  const std::string key_path = (directory / "key.pem").string();
  std::error_code error;
  if (std::filesystem::exists(certificate_path, error) &&
      std::filesystem::exists(key_path, error)) {
    ORRERY_ASSIGN_OR_RETURN(std::string certificate_pem,
                            ReadPemFile(certificate_path, "TLS certificate"));
    ORRERY_ASSIGN_OR_RETURN(std::string key_pem, ReadPemFile(key_path, "TLS key"));
    return CertificateAndKey{std::move(certificate_pem), std::move(key_pem)};
  }
  std::filesystem::create_directories(directory, error);
  if (error) {
    return Status::IoError("cannot create directory " + dir + ": " + error.message());
  }
  ORRERY_ASSIGN_OR_RETURN(CertificateAndKey generated, GenerateSelfSignedCertificate());
  // cert.pem is removed first and written last: a crash in between leaves no
  // cert.pem, so the next start generates a matching pair instead of pairing a
  // certificate with another key.
  std::filesystem::remove(certificate_path, error);
  ORRERY_RETURN_IF_ERROR(WritePemFile(key_path, generated.private_key_pem, 0600));
  ORRERY_RETURN_IF_ERROR(WritePemFile(certificate_path, generated.certificate_pem, 0644));
  return generated;
}

}  // namespace orrery::http
