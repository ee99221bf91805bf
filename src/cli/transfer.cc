#include "cli/transfer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <vector>

#include "cli/item_reader.h"
#include "cli/rest_call.h"
#include "common/encoding.h"
#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

constexpr size_t kBulkOperations = 100;
constexpr int kMaxThrottledRounds = 1000;

int Fail(const char* verb, const std::string& message) {
  std::fprintf(stderr, "orrery %s: %s\n", verb, message.c_str());
  return 1;
}

Connection ConnectionOf(const TransferOptions& o) { return Connection{o.endpoint, o.key}; }

std::string ContainerLink(const TransferOptions& o) {
  return "dbs/" + o.database + "/colls/" + o.container;
}
std::string ContainerPath(const TransferOptions& o) {
  return "dbs/" + PercentEncode(o.database) + "/colls/" + PercentEncode(o.container);
}

// How many items the file holds, every one checked to be JSON: a malformed one stops the
// import before anything is sent, with where it is.
Result<size_t> CountItems(const std::string& file) {
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<ItemReader> reader, ItemReader::Open(file, true));
  size_t count = 0;
  for (;;) {
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> item, reader->Next());
    if (!item) return count;
    ++count;
  }
}

std::string CheckpointOf(const std::string& file) { return file + ".orrery-import"; }

size_t ReadCheckpoint(const std::string& file) {
  std::ifstream in(CheckpointOf(file));
  size_t done = 0;
  if (in >> done) return done;
  return 0;
}

void WriteCheckpoint(const std::string& file, size_t done) {
  const std::string path = CheckpointOf(file);
  {
    std::ofstream out(path + ".tmp", std::ios::trunc);
    out << done << '\n';
  }
  std::error_code ec;
  std::filesystem::rename(path + ".tmp", path, ec);
}

// The import's shared state: the next batch to send, and which are done.
struct Progress {
  std::mutex mutex;
  size_t next = 0;        // the first item no worker has taken (under the reader's lock)
  size_t contiguous = 0;  // every item before it is in
  std::set<std::pair<size_t, size_t>> finished;  // [begin, end) done past `contiguous`
  size_t imported = 0;
  size_t failed = 0;
  double charge = 0;
  std::string first_error;
};

// Sends one bulk request of `batch`, the file's items [begin, begin + batch.size()), until
// every operation is in or failed for good; 429s wait as the server asks.
void ImportBatch(const TransferOptions& o, const partition::PartitionKeyDefinition& key,
                 const std::vector<std::string>& batch, size_t begin, Progress& progress) {
  const size_t end = begin + batch.size();
  auto item_text = [&](size_t i) -> const std::string& { return batch[i - begin]; };
  std::vector<size_t> pending;
  for (size_t i = begin; i < end; ++i) pending.push_back(i);
  size_t imported = 0;
  size_t failed = 0;
  double charge = 0;
  std::string error;
  for (int round = 0; !pending.empty() && round < kMaxThrottledRounds; ++round) {
    std::string body = "[";
    std::vector<size_t> sent;
    for (size_t i : pending) {
      Result<json::Value> item = json::Parse(item_text(i));
      Result<partition::PartitionKeyValue> pk =
          item.ok() && item->is_object()
              ? partition::ExtractFromItem(*item, key)
              : Result<partition::PartitionKeyValue>(
                    Status::BadRequest("item " + std::to_string(i + 1) + " is not a JSON object"));
      if (!pk.ok()) {
        ++failed;
        if (error.empty()) error = "item " + std::to_string(i + 1) + ": " + pk.status().message();
        continue;
      }
      if (body.size() > 1) body += ',';
      body += "{\"operationType\":\"Upsert\",\"partitionKey\":";
      json::AppendQuoted(body, partition::ToHeaderJson(*pk));
      body += ",\"resourceBody\":";
      body += item_text(i);
      body += '}';
      sent.push_back(i);
    }
    body += ']';
    pending.clear();
    if (sent.empty()) break;
    RestCall call{"POST",
                  "docs",
                  ContainerLink(o),
                  ContainerPath(o) + "/docs",
                  body,
                  {{"x-ms-cosmos-is-batch-request", "True"},
                   {"x-ms-cosmos-batch-atomic", "False"},
                   {"prefer", "return=minimal"}}};
    Result<http::Response> response = SendRaw(ConnectionOf(o), call);
    int wait_ms = 0;
    if (!response.ok() || response->status == 429 || response->status >= 500) {
      // The whole request again (the server throttled or failed it, or the connection).
      pending = sent;
      wait_ms = response.ok() ? std::atoi(HeaderOf(*response, "x-ms-retry-after-ms").c_str()) : 500;
    } else if (response->status >= 400) {
      failed += sent.size();
      if (error.empty())
        error = "(" + std::to_string(response->status) + ") " + response->body.substr(0, 300);
    } else {
      charge += std::strtod(HeaderOf(*response, "x-ms-request-charge").c_str(), nullptr);
      Result<json::Value> results = json::Parse(response->body);
      if (!results.ok() || !results->is_array() || results->as_array().size() != sent.size()) {
        failed += sent.size();
        if (error.empty()) error = "the server's bulk answer is malformed";
      } else {
        for (size_t k = 0; k < sent.size(); ++k) {
          const json::Value& r = results->as_array()[k];
          const json::Value* status = r.Find("statusCode");
          const int code =
              status != nullptr && status->is_number() ? static_cast<int>(status->as_double()) : 0;
          if (code == 200 || code == 201) {
            ++imported;
          } else if (code == 429) {
            pending.push_back(sent[k]);
            const json::Value* retry = r.Find("retryAfterMilliseconds");
            if (retry != nullptr && retry->is_number()) {
              wait_ms = std::max(wait_ms, static_cast<int>(retry->as_double()));
            }
          } else {
            ++failed;
            if (error.empty()) {
              const json::Value* message = r.Find("message");
              error = "item " + std::to_string(sent[k] + 1) + ": (" + std::to_string(code) + ") " +
                      (message != nullptr && message->is_string() ? message->as_string() : "");
            }
          }
        }
      }
    }
    if (!pending.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(wait_ms, 10, 5000)));
    }
  }
  failed += pending.size();
  const std::lock_guard lock(progress.mutex);
  progress.imported += imported;
  progress.failed += failed;
  progress.charge += charge;
  if (progress.first_error.empty()) progress.first_error = error;
  // A batch with an item that failed is not done: the checkpoint stays before it, so that
  // the import run again (the item mended) sends it.
  if (failed > 0) return;
  progress.finished.emplace(begin, end);
  while (!progress.finished.empty() && progress.finished.begin()->first == progress.contiguous) {
    progress.contiguous = progress.finished.begin()->second;
    progress.finished.erase(progress.finished.begin());
  }
}

}  // namespace

int RunImport(const TransferOptions& o) {
  const char* verb = "import";
  if (o.concurrency < 1 || o.concurrency > 64) return Fail(verb, "--concurrency must be 1 to 64");
  Result<http::Response> container =
      Send(ConnectionOf(o), RestCall{"GET", "colls", ContainerLink(o), ContainerPath(o), "", {}});
  if (!container.ok()) return Fail(verb, container.status().message());
  Result<json::Value> definition = json::Parse(container->body);
  const json::Value* pk = definition.ok() ? definition->Find("partitionKey") : nullptr;
  if (pk == nullptr) return Fail(verb, "the container's definition has no partitionKey");
  Result<partition::PartitionKeyDefinition> key = partition::ParseDefinition(*pk);
  if (!key.ok()) return Fail(verb, key.status().message());
  Result<size_t> total = CountItems(o.file);
  if (!total.ok()) return Fail(verb, total.status().message());
  Result<std::unique_ptr<ItemReader>> reader = ItemReader::Open(o.file, false);
  if (!reader.ok()) return Fail(verb, reader.status().message());

  Progress progress;
  const size_t start = o.restart ? 0 : std::min(ReadCheckpoint(o.file), *total);
  for (size_t skipped = 0; skipped < start; ++skipped) {
    if (!(*reader)->Next().ok()) return Fail(verb, "cannot read " + o.file);
  }
  if (start > 0) {
    std::fprintf(stderr, "orrery import: resuming after the first %zu items (%s)\n", start,
                 CheckpointOf(o.file).c_str());
  }
  progress.next = progress.contiguous = start;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const auto started = std::chrono::steady_clock::now();
  std::mutex done_mutex;
  std::condition_variable done_signal;
  bool done = false;
  std::thread reporter([&] {
    // The checkpoint every half second, and the progress line on a terminal.
    for (;;) {
      {
        std::unique_lock lock(done_mutex);
        if (done_signal.wait_for(lock, std::chrono::milliseconds(500), [&] { return done; })) {
          return;
        }
      }
      size_t contiguous, imported;
      {
        const std::lock_guard lock(progress.mutex);
        contiguous = progress.contiguous;
        imported = progress.imported;
      }
      WriteCheckpoint(o.file, contiguous);
      if (terminal) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "\r%zu of %zu items in, %.0f items/s   ", contiguous, *total,
                     static_cast<double>(imported) / std::max(seconds, 0.001));
      }
    }
  });
  // Workers take the file's next batch in turn: only the batches being sent are held.
  std::mutex reader_mutex;
  std::vector<std::thread> workers;
  for (int w = 0; w < o.concurrency; ++w) {
    workers.emplace_back([&] {
      for (;;) {
        std::vector<std::string> batch;
        size_t begin;
        {
          const std::lock_guard lock(reader_mutex);
          begin = progress.next;
          while (batch.size() < kBulkOperations) {
            Result<std::optional<std::string>> item = (*reader)->Next();
            if (!item.ok() || !*item) break;
            batch.push_back(std::move(**item));
          }
          progress.next += batch.size();
        }
        if (batch.empty()) return;
        ImportBatch(o, *key, batch, begin, progress);
      }
    });
  }
  for (std::thread& t : workers) t.join();
  {
    const std::lock_guard lock(done_mutex);
    done = true;
  }
  done_signal.notify_one();
  reporter.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (terminal) std::fprintf(stderr, "\n");
  std::fprintf(stderr,
               "orrery import: %zu items in, %zu failed, in %.1f s (%.0f items/s), %.2f RU\n",
               progress.imported, progress.failed, seconds,
               static_cast<double>(progress.imported) / std::max(seconds, 0.001), progress.charge);
  if (progress.failed > 0) {
    WriteCheckpoint(o.file, progress.contiguous);
    return Fail(verb, progress.first_error);
  }
  std::error_code ec;
  std::filesystem::remove(CheckpointOf(o.file), ec);
  return 0;
}

int RunExport(const TransferOptions& o) {
  const char* verb = "export";
  std::ofstream out(o.file, std::ios::binary | std::ios::trunc);
  if (!out) return Fail(verb, "cannot write " + o.file);
  size_t count = 0;
  std::string continuation;
  if (o.array) out << '[';
  do {
    const RestCall call =
        QueryPageCall(ContainerLink(o), ContainerPath(o), "SELECT * FROM c", continuation);
    Result<http::Response> page = SendRaw(ConnectionOf(o), call);
    if (page.ok() && page->status == 429) {
      std::this_thread::sleep_for(std::chrono::milliseconds(
          std::clamp(std::atoi(HeaderOf(*page, "x-ms-retry-after-ms").c_str()), 10, 5000)));
      continue;
    }
    if (!page.ok()) return Fail(verb, page.status().message());
    if (page->status >= 400) {
      return Fail(verb, "(" + std::to_string(page->status) + ") " + page->body.substr(0, 300));
    }
    continuation = HeaderOf(*page, "x-ms-continuation");
    Result<json::Value> parsed = json::Parse(page->body);
    const json::Value* documents = parsed.ok() ? parsed->Find("Documents") : nullptr;
    if (documents == nullptr || !documents->is_array()) {
      return Fail(verb, "the server's answer has no Documents");
    }
    for (const json::Value& document : documents->as_array()) {
      json::Value item = json::Value::MakeObject({});
      for (const auto& [name, value] : document.as_object()) {
        if (name == "_rid" || name == "_self" || name == "_etag" || name == "_attachments" ||
            name == "_ts") {
          continue;
        }
        item.Set(name, value);
      }
      if (o.array) {
        if (count > 0) out << ',';
        out << json::Write(item);
      } else {
        out << json::Write(item) << '\n';
      }
      ++count;
    }
  } while (!continuation.empty());
  if (o.array) out << "]\n";
  out.close();
  if (!out) return Fail(verb, "cannot write " + o.file);
  std::fprintf(stderr, "orrery export: %zu items to %s\n", count, o.file.c_str());
  return 0;
}

}  // namespace orrery::cli
