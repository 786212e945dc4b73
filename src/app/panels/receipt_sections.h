// The Why this token panel's three sections, one file each: the token receipt
// (receipt_view.cpp), the intervention branch beside its parent (intervention_view.cpp) and the
// decision map (decision_map_view.cpp). receipt_panel.cpp picks the section and the rival; each
// section computes its session query only when its key changes (the cache in ReceiptPanelState)
// and pushes the commands its controls and cells ask for.
#pragma once
#include <string>

#include "app/commands.h"
#include "app/panel_env.h"
#include "app/panel_state.h"

namespace ts {

class Session;
struct Step;

namespace why {

// The receipt of `lane`'s shown step (`node`, `st`) against `rival`: the parts as signed bars,
// largest first, the sum line, the sampler stage by stage for both tokens, the draw.
void draw_receipt(const Session& s, int lane, int node, const Step& st, int rival,
                  const PanelEnv& env, ReceiptPanelState& own);
// The intervention controls (a head, a block or an MLP; off or scaled; at or from this step),
// and, on an intervention branch, its fork step without and with it side by side.
void draw_intervention(const Session& s, int lane, int node, const PanelEnv& env,
                       ReceiptPanelState& own, Commands& cmd);
// Layers x steps of the chosen token's logit-lens probability over `lane`'s path; a click on a
// cell goes to its step and selects its layer.
void draw_decision_map(const Session& s, int lane, const PanelEnv& env, ReceiptPanelState& own,
                       Commands& cmd);

// A token as the class reads it: its visible piece in quotes ("'␣was'").
std::string quoted_piece(const Session& s, int id);

}  // namespace why
}  // namespace ts
