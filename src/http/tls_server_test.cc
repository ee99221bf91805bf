#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>

#include "http/pem_file.h"
#include "http/self_signed_certificate.h"
#include "http/server.h"
#include "http/test_client.h"
#include "http/test_server.h"
#include "http/test_temp_dir.h"

namespace orrery::http {
namespace {

using std::chrono::seconds;
using testing::ClientTlsOptions;
using testing::TestClient;
using testing::TestTempDir;

ServerOptions TlsOptions() {
  return ServerOptions{.host = "127.0.0.1", .port = 0, .threads = 2, .tls = true};
}

Response Echo(const Request& request) {
  return Response{
      .status = 200,
      .headers = {},
      .body = request.target + " tls=" + (request.tls ? "1" : "0") + " " + request.body};
}

std::unique_ptr<Server> StartServer(ServerOptions options) {
  return testing::StartTestServer(std::move(options), Echo);
}

std::unique_ptr<TestClient> ConnectTls(const Server& server, const ClientTlsOptions& options = {}) {
  std::string error;
  auto client = TestClient::ConnectTls(server.port(), options, &error);
  EXPECT_NE(client, nullptr) << error;
  return client;
}

std::string Get(std::string_view target) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

TEST(TlsServerTest, ServesHttpsWithAGeneratedCertificate) {
  auto server = StartServer(TlsOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTls(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/one")));
  const auto first = client->ReadResponse();
  ASSERT_TRUE(client->Send("POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"));
  const auto second = client->ReadResponse();
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_EQ(first->body, "/one tls=1 ");
  EXPECT_EQ(second->body, "/two tls=1 abc");
}

TEST(TlsServerTest, KeepsTheGeneratedCertificateInTheGivenDirectory) {
  TestTempDir dir;
  ServerOptions options = TlsOptions();
  options.generated_cert_dir = dir.path();
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  const std::string certificate_path = dir.path() + "/cert.pem";
  struct stat info {};
  ASSERT_EQ(::stat((dir.path() + "/key.pem").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);

  // A client that trusts cert.pem verifies the server as "localhost".
  auto client = ConnectTls(*server, {.ca_file = certificate_path, .server_name = "localhost"});
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/verified")));
  ASSERT_TRUE(client->ReadResponse().has_value());

  const std::string first_certificate = *ReadPemFile(certificate_path, "TLS certificate");
  server->Stop();
  auto restarted = StartServer(options);
  ASSERT_NE(restarted, nullptr);
  EXPECT_EQ(*ReadPemFile(certificate_path, "TLS certificate"), first_certificate);
}

TEST(TlsServerTest, UsesTheGivenCertificateFiles) {
  TestTempDir dir;
  const Result<CertificateAndKey> pair = GenerateSelfSignedCertificate();
  ASSERT_TRUE(pair.ok());
  ServerOptions options = TlsOptions();
  options.tls_cert_file = dir.path() + "/given-cert.pem";
  options.tls_key_file = dir.path() + "/given-key.pem";
  ASSERT_TRUE(WritePemFile(options.tls_cert_file, pair->certificate_pem, 0644).ok());
  ASSERT_TRUE(WritePemFile(options.tls_key_file, pair->private_key_pem, 0600).ok());
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTls(*server, {.ca_file = options.tls_cert_file, .server_name = "localhost"});
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/given")));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "/given tls=1 ");
}

TEST(TlsServerTest, ReportsAnUnreadableCertificate) {
  ServerOptions options = TlsOptions();
  options.tls_cert_file = "/nonexistent/cert.pem";
  options.tls_key_file = "/nonexistent/key.pem";
  const Result<std::unique_ptr<Server>> server = Server::Start(options, Echo);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().message(),
            "cannot read TLS certificate /nonexistent/cert.pem: No such file or directory");
}

TEST(TlsServerTest, ReportsACertificateFileThatIsNotPem) {
  TestTempDir dir;
  ServerOptions options = TlsOptions();
  options.tls_cert_file = dir.path() + "/cert.pem";
  options.tls_key_file = dir.path() + "/key.pem";
  ASSERT_TRUE(WritePemFile(options.tls_cert_file, "not a certificate", 0644).ok());
  ASSERT_TRUE(WritePemFile(options.tls_key_file, "not a key", 0600).ok());
  const Result<std::unique_ptr<Server>> server = Server::Start(options, Echo);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(
      server.status().message().find("cannot read TLS certificate " + options.tls_cert_file + ": "),
      0u)
      << server.status().message();
}

TEST(TlsServerTest, ReportsAKeyThatDoesNotMatchTheCertificate) {
  TestTempDir dir;
  const Result<CertificateAndKey> first = GenerateSelfSignedCertificate();
  const Result<CertificateAndKey> second = GenerateSelfSignedCertificate();
  ASSERT_TRUE(first.ok() && second.ok());
  ServerOptions options = TlsOptions();
  options.tls_cert_file = dir.path() + "/cert.pem";
  options.tls_key_file = dir.path() + "/key.pem";
  ASSERT_TRUE(WritePemFile(options.tls_cert_file, first->certificate_pem, 0644).ok());
  ASSERT_TRUE(WritePemFile(options.tls_key_file, second->private_key_pem, 0600).ok());
  const Result<std::unique_ptr<Server>> server = Server::Start(options, Echo);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().message().find("cannot read TLS key " + options.tls_key_file + ": "),
            0u)
      << server.status().message();
}

TEST(TlsServerTest, RejectsAnOversizedBodyWith413) {
  ServerOptions options = TlsOptions();
  options.max_body_bytes = 8;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTls(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n" +
                           std::string(20, 'b')));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 413);
  EXPECT_EQ(response->body.find(R"({"code":"RequestEntityTooLarge")"), 0u);
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(TlsServerTest, ClosesAnIdleTlsConnection) {
  ServerOptions options = TlsOptions();
  options.idle_timeout = seconds(1);
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTls(*server);
  ASSERT_NE(client, nullptr);
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(TlsServerTest, DropsAPlainHttpClient) {
  ServerOptions options = TlsOptions();
  options.request_timeout = seconds(2);
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = TestClient::Connect(server->port());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/")));
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(TlsServerTest, StopClosesTlsConnections) {
  auto server = StartServer(TlsOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTls(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/")));
  ASSERT_TRUE(client->ReadResponse().has_value());
  server->Stop();
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

}  // namespace
}  // namespace orrery::http
