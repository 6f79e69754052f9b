// Micro-benchmarks of the hot pure paths: chunk reassembly, the result stream
// (logcat reader loop) and payload validation.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/result_stream.hpp"
#include "clawperator/transport/sha256.hpp"

namespace {

using clawperator::Json;
namespace transport = clawperator::transport;

// A result line of about `bytes` bytes, chunked as the Operator does, framed as
// `logcat -v time` lines.
std::string chunked_stream(std::size_t bytes) {
  std::string text(bytes, 'x');
  for (std::size_t i = 0; i < text.size(); i += 97) text[i] = static_cast<char>('a' + i % 26);
  Json envelope = {{"commandId", "c1"},
                   {"taskId", "t1"},
                   {"status", "success"},
                   {"stepResults", Json::array({Json{{"id", "s"},
                                                     {"actionType", "snapshot"},
                                                     {"success", true},
                                                     {"data", Json{{"text", text}}}}})},
                   {"error", nullptr}};
  const std::string line = "[Clawperator-Result] " + envelope.dump();
  const std::string digest = transport::sha256_hex(line);
  const std::size_t count = (line.size() + 1023) / 1024;
  std::string stream;
  stream.reserve(line.size() * 2);
  for (std::size_t index = 0; index < count; ++index) {
    Json record = {
        {"commandId", "c1"},
        {"taskId", "t1"},
        {"index", index},
        {"count", count},
        {"byteLength", line.size()},
        {"sha256", digest},
        {"data", transport::encode_base64(std::string_view(line).substr(index * 1024, 1024))}};
    stream += "11-30 12:00:00.000 I/Clawperator( 4242): [Clawperator-Result-Chunk] ";
    stream += record.dump();
    stream += '\n';
  }
  return stream;
}

void BM_ChunkedResult(benchmark::State& state) {
  const std::string stream = chunked_stream(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    transport::ResultStreamDecoder decoder("c1", "t1");
    decoder.begin_capture();
    // Feed in pipe-sized reads, as the reader loop does.
    for (std::size_t offset = 0; offset < stream.size(); offset += 65536) {
      decoder.feed(std::string_view(stream).substr(offset, 65536));
    }
    if (!decoder.settled()) state.SkipWithError("not settled");
    benchmark::DoNotOptimize(decoder.status());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_ChunkedResult)
    ->Arg(1 << 10)
    ->Arg(64 << 10)
    ->Arg(16 << 20)
    ->Arg((64 << 20) - 4096)
    ->Unit(benchmark::kMillisecond);

void BM_UnrelatedLogTraffic(benchmark::State& state) {
  std::string stream;
  for (int i = 0; i < 10000; ++i) {
    stream += "11-30 12:00:00.000 D/SomeApp( 1234): an unrelated log line number " +
              std::to_string(i) + " with some text\n";
  }
  for (auto _ : state) {
    transport::ResultStreamDecoder decoder("c1", "t1");
    decoder.begin_capture();
    decoder.feed(stream);
    benchmark::DoNotOptimize(decoder.status());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream.size()));
}
BENCHMARK(BM_UnrelatedLogTraffic);

void BM_Sha256AndBase64(benchmark::State& state) {
  const std::string data(16 << 20, 'q');
  const std::string encoded = transport::encode_base64(data);
  for (auto _ : state) {
    benchmark::DoNotOptimize(transport::sha256_hex(data));
    benchmark::DoNotOptimize(transport::decode_base64(encoded));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_Sha256AndBase64)->Unit(benchmark::kMillisecond);

void BM_ValidatePayload(benchmark::State& state) {
  const Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"bench",
    "expectedFormat":"android-ui-automator","timeoutMs":30000,"actions":[
    {"id":"a","type":"open_app","params":{"applicationId":"com.android.settings"}},
    {"id":"b","type":"wait_for_node","params":{"matcher":{"textEquals":"Network"}}},
    {"id":"c","type":"click","params":{"matcher":{"textEquals":"Network"}}},
    {"id":"d","type":"enter_text","params":{"matcher":{"resourceId":"x"},"text":"hello"}},
    {"id":"e","type":"snapshot"}]})");
  for (auto _ : state) benchmark::DoNotOptimize(clawperator::contract::validate_execution(payload));
}
BENCHMARK(BM_ValidatePayload);

}  // namespace

BENCHMARK_MAIN();
