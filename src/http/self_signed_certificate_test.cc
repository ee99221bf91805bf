#include "http/self_signed_certificate.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <filesystem>
#include <memory>

#include "http/pem_file.h"
#include "http/test_temp_dir.h"

namespace orrery::http {
namespace {

using testing::TestTempDir;

struct Deleter {
  void operator()(X509* p) const { X509_free(p); }
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(GENERAL_NAMES* p) const { GENERAL_NAMES_free(p); }
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
  void operator()(X509_STORE_CTX* p) const { X509_STORE_CTX_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
};

std::unique_ptr<X509, Deleter> ParseCertificate(const std::string& pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  return std::unique_ptr<X509, Deleter>(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

std::unique_ptr<EVP_PKEY, Deleter> ParseKey(const std::string& pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  return std::unique_ptr<EVP_PKEY, Deleter>(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

CertificateAndKey Generate() {
  Result<CertificateAndKey> generated = GenerateSelfSignedCertificate();
  EXPECT_TRUE(generated.ok()) << generated.status().ToString();
  return generated.ok() ? *generated : CertificateAndKey{};
}

// The subjectAltName entries as "DNS:name" / "IP:a.b.c.d", comma separated.
std::string AltNames(X509* certificate) {
  std::unique_ptr<GENERAL_NAMES, Deleter> names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(certificate, NID_subject_alt_name, nullptr, nullptr)));
  std::string out;
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    out += out.empty() ? "" : ",";
    if (name->type == GEN_DNS) {
      out += "DNS:" +
             std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(name->d.dNSName)),
                         static_cast<size_t>(ASN1_STRING_length(name->d.dNSName)));
    } else if (name->type == GEN_IPADD && ASN1_STRING_length(name->d.iPAddress) == 4) {
      const unsigned char* ip = ASN1_STRING_get0_data(name->d.iPAddress);
      out += "IP:" + std::to_string(ip[0]) + "." + std::to_string(ip[1]) + "." +
             std::to_string(ip[2]) + "." + std::to_string(ip[3]);
    } else {
      out += "other";
    }
  }
  return out;
}

// Verifies `certificate` against a store trusting only itself, for `host` (a DNS
// name) or `ip`, the way a client that imported it would.
bool VerifiesAsItsOwnTrustAnchor(X509* certificate, const char* host, const char* ip) {
  std::unique_ptr<X509_STORE, Deleter> store(X509_STORE_new());
  X509_STORE_add_cert(store.get(), certificate);
  std::unique_ptr<X509_STORE_CTX, Deleter> context(X509_STORE_CTX_new());
  X509_STORE_CTX_init(context.get(), store.get(), certificate, nullptr);
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(context.get());
  X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
  if (host != nullptr) {
    X509_VERIFY_PARAM_set1_host(param, host, 0);
  }
  if (ip != nullptr) {
    X509_VERIFY_PARAM_set1_ip_asc(param, ip);
  }
  const bool ok = X509_verify_cert(context.get()) == 1;
  EXPECT_TRUE(ok) << X509_verify_cert_error_string(X509_STORE_CTX_get_error(context.get()));
  return ok;
}

TEST(SelfSignedCertificateTest, IsAnX509v3CertificateForLocalhost) {
  const CertificateAndKey generated = Generate();
  auto certificate = ParseCertificate(generated.certificate_pem);
  ASSERT_NE(certificate, nullptr);
  EXPECT_EQ(X509_get_version(certificate.get()), X509_VERSION_3);
  char subject[256];
  X509_NAME_oneline(X509_get_subject_name(certificate.get()), subject, sizeof(subject));
  EXPECT_STREQ(subject, "/CN=localhost");
  EXPECT_EQ(X509_NAME_cmp(X509_get_subject_name(certificate.get()),
                          X509_get_issuer_name(certificate.get())),
            0);
  EXPECT_EQ(AltNames(certificate.get()), "DNS:localhost,IP:127.0.0.1");
}

TEST(SelfSignedCertificateTest, UsesAnEcP256KeyThatSignedIt) {
  const CertificateAndKey generated = Generate();
  auto certificate = ParseCertificate(generated.certificate_pem);
  auto key = ParseKey(generated.private_key_pem);
  ASSERT_NE(certificate, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(EVP_PKEY_get_base_id(key.get()), EVP_PKEY_EC);
  char group[64] = {};
  size_t group_length = 0;
  EVP_PKEY_get_group_name(key.get(), group, sizeof(group), &group_length);
  EXPECT_STREQ(group, "prime256v1");
  EXPECT_EQ(X509_check_private_key(certificate.get(), key.get()), 1);
  EXPECT_EQ(X509_verify(certificate.get(), key.get()), 1);
}

TEST(SelfSignedCertificateTest, IsValidNowAndForTenYears) {
  const CertificateAndKey generated = Generate();
  auto certificate = ParseCertificate(generated.certificate_pem);
  ASSERT_NE(certificate, nullptr);
  EXPECT_LT(X509_cmp_current_time(X509_get0_notBefore(certificate.get())), 0);
  int days = 0;
  int seconds = 0;
  ASSERT_EQ(ASN1_TIME_diff(&days, &seconds, nullptr, X509_get0_notAfter(certificate.get())), 1);
  EXPECT_GE(days, 3649);
  EXPECT_LE(days, 3650);
}

TEST(SelfSignedCertificateTest, HasARandomSerial) {
  auto first = ParseCertificate(Generate().certificate_pem);
  auto second = ParseCertificate(Generate().certificate_pem);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(
      ASN1_INTEGER_cmp(X509_get0_serialNumber(first.get()), X509_get0_serialNumber(second.get())),
      0);
  std::unique_ptr<BIGNUM, Deleter> serial(
      ASN1_INTEGER_to_BN(X509_get0_serialNumber(first.get()), nullptr));
  EXPECT_FALSE(BN_is_negative(serial.get()));
  EXPECT_GT(BN_num_bits(serial.get()), 64);
}

TEST(SelfSignedCertificateTest, VerifiesForLocalhostWhenTrusted) {
  auto certificate = ParseCertificate(Generate().certificate_pem);
  ASSERT_NE(certificate, nullptr);
  EXPECT_TRUE(VerifiesAsItsOwnTrustAnchor(certificate.get(), "localhost", nullptr));
  EXPECT_TRUE(VerifiesAsItsOwnTrustAnchor(certificate.get(), nullptr, "127.0.0.1"));
}

TEST(SelfSignedCertificateTest, WritesANewPairIntoTheDirectory) {
  TestTempDir dir;
  const std::string subdir = dir.path() + "/data/tls";
  const Result<CertificateAndKey> created = LoadOrCreateSelfSignedCertificate(subdir);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(*ReadPemFile(subdir + "/cert.pem", "TLS certificate"), created->certificate_pem);
  EXPECT_EQ(*ReadPemFile(subdir + "/key.pem", "TLS key"), created->private_key_pem);
  struct stat info {};
  ASSERT_EQ(::stat((subdir + "/key.pem").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

TEST(SelfSignedCertificateTest, ReusesAnExistingPair) {
  TestTempDir dir;
  const Result<CertificateAndKey> first = LoadOrCreateSelfSignedCertificate(dir.path());
  const Result<CertificateAndKey> second = LoadOrCreateSelfSignedCertificate(dir.path());
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->certificate_pem, second->certificate_pem);
  EXPECT_EQ(first->private_key_pem, second->private_key_pem);
}

TEST(SelfSignedCertificateTest, RegeneratesBothWhenOneFileIsMissing) {
  TestTempDir dir;
  const Result<CertificateAndKey> first = LoadOrCreateSelfSignedCertificate(dir.path());
  ASSERT_TRUE(first.ok());
  std::filesystem::remove(dir.path() + "/key.pem");
  const Result<CertificateAndKey> second = LoadOrCreateSelfSignedCertificate(dir.path());
  ASSERT_TRUE(second.ok());
  EXPECT_NE(first->certificate_pem, second->certificate_pem);
  auto certificate = ParseCertificate(*ReadPemFile(dir.path() + "/cert.pem", "TLS certificate"));
  auto key = ParseKey(*ReadPemFile(dir.path() + "/key.pem", "TLS key"));
  EXPECT_EQ(X509_check_private_key(certificate.get(), key.get()), 1);
}

}  // namespace
}  // namespace orrery::http
