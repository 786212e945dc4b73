// PollServer: the connections (http_host) and the routes (poll_routes) put together.
#include "poll/poll_server.h"

#include "poll/http_host.h"
#include "poll/poll_routes.h"

namespace ts {

struct PollServer::Impl {
  Impl(std::shared_ptr<PollState> s, const PollServerLimits& l)
      : state(s),
        host_limits{l.workers, l.max_connections,  l.max_per_client, l.deadline,
                    l.idle,    l.max_request_bytes},
        routes(std::move(s), l),
        host(host_limits) {}
  std::shared_ptr<PollState> state;
  HostLimits host_limits;
  PollRoutes routes;
  HttpHost host;  // after routes: destroyed first, so its threads end before the routes go
  std::string address;
  int port = 0;
};

PollServer::PollServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PollServer::~PollServer() { stop(); }

Result<std::unique_ptr<PollServer>> PollServer::start(const ListenAddress& at,
                                                      std::shared_ptr<PollState> state,
                                                      PollServerLimits limits) {
  if (!state) return make_error("the poll server needs a poll state");
  auto impl = std::make_unique<Impl>(std::move(state), limits);
  impl->routes.install(impl->host);
  Result<int> port = impl->host.start(at.host, at.port);
  if (!port) return port.error();
  impl->address = at.host;
  impl->port = port.value();
  return std::unique_ptr<PollServer>(new PollServer(std::move(impl)));
}

void PollServer::stop() { impl_->host.stop_serving(); }
bool PollServer::running() const { return impl_->host.is_running(); }
const std::string& PollServer::host() const { return impl_->address; }
int PollServer::port() const { return impl_->port; }
PollState& PollServer::state() const { return *impl_->state; }

PollServerCounters PollServer::counters() const {
  const HostCounters h = impl_->host.counters();
  PollServerCounters c;
  c.connections = h.accepted;
  c.refused_connections = h.refused;
  c.timed_out = h.timed_out;
  c.over_budget = h.over_budget;
  impl_->routes.add_counters(c);
  return c;
}

}  // namespace ts
