// The tale generator's plot table (tale_plots.h): the twenty plots (tale_plot_list.h) in the
// fixed order a tale's plot is drawn from, and what a reader might have asked for of each.
#include "train/tale_plots.h"

#include "train/tale_plot_list.h"

namespace ts {

namespace {

using namespace tale_plot;

// clang-format off

// What a reader might have asked for, per plot (in kPlots' order): a clause after "who", true of
// every tale that plot writes.
constexpr const char* kPlotRequests[] = {"loses {np} {tt}",
                                         "learns to share",
                                         "is brave",
                                         "helps a little {a}",
                                         "wants to play outside with {f}",
                                         "makes a gift",
                                         "has lunch with {f}",
                                         "grows a garden",
                                         "follows a secret map",
                                         "bakes something",
                                         "makes a new friend named {f}",
                                         "runs a race",
                                         "goes to the seaside",
                                         "is awake one night",
                                         "fixes {np} broken {tt}",
                                         "plays in the snow",
                                         "gets lost",
                                         "celebrates {f}'s birthday",
                                         "learns something new",
                                         "plays with a little boat"};

constexpr TalePlot kPlots[] = {plot_lost_toy, plot_sharing, plot_brave,      plot_animal,
                               plot_weather,  plot_gift,    plot_food,       plot_garden,
                               plot_treasure, plot_baking,  plot_new_friend, plot_race,
                               plot_beach,    plot_night,   plot_fixing,     plot_snow,
                               plot_lost_way, plot_party,   plot_learning,   plot_boat};
static_assert(sizeof kPlots / sizeof kPlots[0] == sizeof kPlotRequests / sizeof kPlotRequests[0]);

// clang-format on

}  // namespace

std::span<const TalePlot> tale_plots() { return kPlots; }
std::span<const char* const> tale_plot_requests() { return kPlotRequests; }

}  // namespace ts
