// Checkpoint writing and reading. Layout: magic "TSCKPT01", then a key=value map (configs and
// info), then the tokenizer, then the state; vectors are a u64 count followed by raw values.
#include "train/checkpoint.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <vector>

#include "base/atomic_write.h"
#include "base/read_file.h"

namespace ts {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'C', 'K', 'P', 'T', '0', '1'};

struct Writer {
  std::ofstream& os;
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    os.write(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  void str(const std::string& s) {
    pod<uint64_t>(s.size());
    os.write(s.data(), static_cast<std::streamsize>(s.size()));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod<uint64_t>(v.size());
    os.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
  }
  void strs(const std::vector<std::string>& v) {
    pod<uint64_t>(v.size());
    for (const std::string& s : v) str(s);
  }
};

struct Reader {
  std::ifstream& is;
  bool ok = true;
  template <class T>
  T pod() {
    T v{};
    is.read(reinterpret_cast<char*>(&v), sizeof(T));
    ok = ok && is.good();
    return v;
  }
  uint64_t count(uint64_t limit) {
    const uint64_t n = pod<uint64_t>();
    if (n > limit) ok = false;
    return ok ? n : 0;
  }
  std::string str() {
    std::string s(count(1u << 30), '\0');
    is.read(s.data(), static_cast<std::streamsize>(s.size()));
    ok = ok && is.good();
    return s;
  }
  template <class T>
  std::vector<T> vec() {
    std::vector<T> v(count(1ull << 32));
    is.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
    ok = ok && is.good();
    return v;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count(1u << 24));
    for (std::string& s : v) s = str();
    return v;
  }
};

std::string num(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

std::map<std::string, std::string> config_map(const TrainConfig& c) {
  const ModelConfig& m = c.model;
  return {{"model.name", m.name}, {"model.n_layers", num(m.n_layers)}, {"model.n_heads", num(m.n_heads)},
          {"model.d_model", num(m.d_model)}, {"model.d_ff", num(m.d_ff)}, {"model.vocab_size", num(m.vocab_size)},
          {"model.n_ctx", num(m.n_ctx)}, {"model.norm_eps", num(m.norm_eps)}, {"model.rope_theta", num(m.rope_theta)},
          {"batch", num(c.batch)}, {"seq_len", num(c.seq_len)}, {"steps", num(static_cast<double>(c.steps))},
          {"lr.max", num(c.lr.max_lr)}, {"lr.min", num(c.lr.min_lr)}, {"lr.warmup", num(static_cast<double>(c.lr.warmup_steps))},
          {"adamw.beta1", num(c.adamw.beta1)}, {"adamw.beta2", num(c.adamw.beta2)}, {"adamw.eps", num(c.adamw.eps)},
          {"adamw.weight_decay", num(c.adamw.weight_decay)}, {"clip", num(c.clip)}, {"seed", std::to_string(c.seed)},
          {"eval_every", num(c.eval_every)}, {"eval_windows", num(c.eval_windows)},
          {"checkpoint_every_s", num(c.checkpoint_every_s)}};
}

Result<TrainConfig> config_from_map(const std::map<std::string, std::string>& kv) {
  TrainConfig c;
  ModelConfig& m = c.model;
  try {
    auto d = [&](const char* k) { return std::stod(kv.at(k)); };
    auto i = [&](const char* k) { return static_cast<int>(d(k)); };
    m.name = kv.at("model.name");
    m.n_layers = i("model.n_layers");
    m.n_heads = m.n_kv_heads = i("model.n_heads");
    m.d_model = i("model.d_model");
    m.d_ff = i("model.d_ff");
    m.vocab_size = i("model.vocab_size");
    m.n_ctx = i("model.n_ctx");
    m.norm_eps = static_cast<float>(d("model.norm_eps"));
    m.rope_theta = static_cast<float>(d("model.rope_theta"));
    c.batch = i("batch");
    c.seq_len = i("seq_len");
    c.steps = static_cast<long>(d("steps"));
    c.lr.max_lr = d("lr.max");
    c.lr.min_lr = d("lr.min");
    c.lr.warmup_steps = static_cast<long>(d("lr.warmup"));
    c.adamw.beta1 = d("adamw.beta1");
    c.adamw.beta2 = d("adamw.beta2");
    c.adamw.eps = d("adamw.eps");
    c.adamw.weight_decay = d("adamw.weight_decay");
    c.clip = d("clip");
    c.seed = std::stoull(kv.at("seed"));
    c.eval_every = i("eval_every");
    c.eval_windows = i("eval_windows");
    c.checkpoint_every_s = d("checkpoint_every_s");
  } catch (const std::exception& e) {
    return make_error(std::string("checkpoint: missing or bad config value (") + e.what() + ")");
  }
  return c;
}

}  // namespace

Status save_checkpoint(const std::string& path, const Checkpoint& ck) {
  // Replaces only a regular file (through a symlink: its target) or a new one, never a device.
  Result<std::string> target = atomic_write_target(path);
  if (!target.ok()) return make_error("checkpoint: " + target.error().message);
  const std::string tmp = target.value() + ".tmp";
  {
    std::ofstream os(tmp, std::ios::binary | std::ios::trunc);
    if (!os) return make_error("checkpoint: cannot write " + tmp);
    Writer w{os};
    os.write(kMagic, sizeof(kMagic));
    std::map<std::string, std::string> kv = config_map(ck.config);
    for (const auto& [k, v] : ck.info) kv["info." + k] = v;
    w.pod<uint64_t>(kv.size());
    for (const auto& [k, v] : kv) w.str(k), w.str(v);
    const TokenizerData& t = ck.tokenizer;
    w.pod<int32_t>(static_cast<int32_t>(t.kind));
    w.str(t.pre);
    w.strs(t.tokens);
    w.vec(t.scores);
    w.vec(t.token_types);
    w.strs(t.merges);
    for (int id : {t.bos_id, t.eos_id, t.unk_id, t.pad_id}) w.pod<int32_t>(id);
    w.pod<uint8_t>(t.add_bos);
    const TrainState& s = ck.state;
    w.pod<int64_t>(s.step);
    for (double v : {s.tokens_seen, s.seconds, s.last_train_loss, s.last_val_loss}) w.pod<double>(v);
    w.pod<int64_t>(s.adam.step);
    w.vec(s.params);
    w.vec(s.adam.m);
    w.vec(s.adam.v);
    if (!os.good()) return make_error("checkpoint: write failed for " + tmp);
  }
  if (std::rename(tmp.c_str(), target->c_str()) != 0) return make_error("checkpoint: cannot rename to " + path);
  return ok_status();
}

Result<Checkpoint> load_checkpoint(const std::string& path) {
  if (Status reg = check_regular_file(path); !reg.ok()) {
    return make_error("checkpoint: " + reg.error().message);
  }
  std::ifstream is(path, std::ios::binary);
  if (!is) return make_error("checkpoint: cannot open " + path);
  char magic[8];
  is.read(magic, sizeof(magic));
  if (!is.good() || !std::equal(magic, magic + 8, kMagic)) return make_error(path + ": not a tokenscope checkpoint");
  Reader r{is};
  Checkpoint ck;
  std::map<std::string, std::string> kv;
  const uint64_t n_kv = r.count(10000);
  for (uint64_t i = 0; i < n_kv && r.ok; ++i) {
    std::string k = r.str();
    kv[k] = r.str();
  }
  if (!r.ok) return make_error(path + ": truncated header");
  auto cfg = config_from_map(kv);
  if (!cfg.ok()) return cfg.error();
  ck.config = cfg.value();
  for (const auto& [k, v] : kv) {
    if (k.rfind("info.", 0) == 0) ck.info[k.substr(5)] = v;
  }
  TokenizerData& t = ck.tokenizer;
  t.kind = static_cast<TokenizerKind>(r.pod<int32_t>());
  t.pre = r.str();
  t.tokens = r.strs();
  t.scores = r.vec<float>();
  t.token_types = r.vec<int32_t>();
  t.merges = r.strs();
  t.bos_id = r.pod<int32_t>();
  t.eos_id = r.pod<int32_t>();
  t.unk_id = r.pod<int32_t>();
  t.pad_id = r.pod<int32_t>();
  t.add_bos = r.pod<uint8_t>() != 0;
  TrainState& s = ck.state;
  s.step = r.pod<int64_t>();
  s.tokens_seen = r.pod<double>();
  s.seconds = r.pod<double>();
  s.last_train_loss = r.pod<double>();
  s.last_val_loss = r.pod<double>();
  s.adam.step = r.pod<int64_t>();
  s.params = r.vec<float>();
  s.adam.m = r.vec<float>();
  s.adam.v = r.vec<float>();
  if (!r.ok) return make_error(path + ": truncated or corrupt checkpoint");
  s.layout = make_param_layout(ck.config.model);
  if (s.params.size() != s.layout.total) return make_error(path + ": parameter count does not match its config");
  if (!s.adam.m.empty() && (s.adam.m.size() != s.layout.total || s.adam.v.size() != s.layout.total)) {
    return make_error(path + ": AdamW state size does not match the parameters");
  }
  return ck;
}

}  // namespace ts
