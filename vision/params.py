"""Every number the detector decides by, in one place (`DetectorParams`), each with the
reason it has the value it has.

The detector's stages (propose -> change against the kept board -> shape -> the set in
use -> doubt) read their numbers from the one `DetectorParams` a `Detector` is made
with (`PARAMS`, the defaults, unless a bench gives another: the ablation bench switches
a rule off through its number). Sizes are top-view px (0.5 px/mm) unless the name says
mm or radii (men's radii, 7.75 px); confidences and heats 0-1; change in units of the
board's own spread.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The most pieces of each class a set holds (law I आ, इ).
MOST = {"white": 9, "black": 9, "queen": 1, "striker": 1}


@dataclass(frozen=True, slots=True)
class DetectorParams:
    """The detector's numbers (see the module docstring), stage by stage."""

    #: Rules switched off by name (the ablation bench, bench/bench_vision_ablation.py;
    #: none for the kiosk): see `RULES`.
    off: frozenset[str] = frozenset()

    # -- the bands of confidence (doubt) --
    #: From this confidence a piece is counted without doubt.
    sure: float = 0.62
    #: From this confidence a piece is counted (below `sure`: counted, and listed unsure).
    count: float = 0.45
    #: From this confidence a proposal not counted is listed unsure.
    doubt: float = 0.3
    #: Just below a band: a piece capped "in doubt" sits this far under it.
    step: float = 0.01
    #: Just above a band: a piece raised "into" a band sits this far over it.
    nudge: float = 0.05

    # -- 1. propose --
    #: The network's proposals are read from this heat (low: the change decides).
    propose: float = 0.12
    #: Under this heat the network barely saw a proposal: a lone disc's size and colour
    #: give its class; from it, the network's class stands (the other in doubt).
    weak: float = 0.25
    #: From this heat the network's proposal is a piece even where little changed.
    hot: float = 0.6
    #: Below this heat a proposal repeated at its symmetric places is judged as print
    #: against the print there (the opening's men lie at such places too, hotter).
    pattern: float = 0.7
    #: Proposals at symmetric places closer than this (px) are at one place.
    pattern_near_px: float = 10.0
    #: A proposal is a printed pattern when this share of its symmetric places hold one.
    pattern_share: float = 0.6
    #: Cold, a proposal is masked out of the learned board this much wider (px): its shadow.
    mask_pad_px: float = 4.0

    # -- 2. change against the kept board --
    #: Pockets are cut out of the surface this much wider (px): their rim's shade.
    pocket_clear_px: float = 3.0
    #: The board's spread of change is measured every this many px (a sample is enough).
    spread_step_px: int = 4
    #: The seam at the surface's edge left out of the frame's strip (px, kernel side).
    seam_px: int = 7
    #: Change is opened with a disc this wide (px): noise and thin print lines go.
    open_px: int = 5
    #: What no proposal explains is opened with a disc this wide (px) before blobs.
    blob_open_px: int = 7
    #: A band narrower than a man (the frame's rim at a slant) goes in this opening (px).
    band_open_px: int = 11
    #: The light's slow fall-off is worked out at 1/this of the view's size.
    fall_off_shrink: int = 4
    #: L differences are offset by this into uint8 for the median (half of 256 levels).
    fall_off_offset: int = 128
    #: The fall-off's median window (px at the shrunk size: 36 px of the view).
    fall_off_px: int = 9
    #: The fall-off is then smoothed with this Gaussian sigma (px at the shrunk size).
    fall_off_sigma: float = 2.0
    #: Colour (a*, b*) weighs this many times brightness (a piece differs in hue too).
    colour_weight: float = 1.5
    #: Change is in units of this many times the board's own median spread.
    spread_units: float = 3.0
    #: ... and never a smaller unit than this (CIELAB): a flawless board is not noise-free.
    least_unit: float = 4.0
    #: A pixel changed from this many units.
    changed_from: float = 1.0
    #: An arm's change is smoothed over this many px (a frame's noise is as strong).
    arm_smooth_px: int = 3
    #: Cold, the print is known where this many of the eight orientations show it bare.
    known_from_views: int = 2
    #: A proposal is judged on a disc this share of its radius (its rim blurs).
    judge_disc: float = 0.8
    #: A proposal is judged against the board where this share of its disc is known.
    judged_share: float = 0.8
    #: A proposal whose disc changed over less than this share, where change can be
    #: judged, is the board's own print or bare board: never a piece.
    print_share: float = 0.2
    #: The confidence is this share heat, the rest change.
    heat_weight: float = 0.5
    #: This share of a disc changed counts as fully changed.
    full_change: float = 0.7
    #: Cold, a hot proposal over little change is trusted this much less.
    cold_hot_less: float = 0.2
    #: A disc's change strength ramps from this ...
    strength_lo: float = 1.5
    #: ... to this (units of the board's spread).
    strength_hi: float = 3.0
    #: A weak proposal that changed through (this share) touches another piece.
    through: float = 0.9
    #: ... and its change then weighs this much.
    touching_change: float = 0.25
    #: Kept board: the queen over red print changed through (this share) before opening.
    red_through: float = 0.75
    #: A piece explains change this much wider than itself (px): its shadow.
    explain_pad_px: float = 1.5

    # -- 3. shape --
    #: A disc of change smaller than this share of a man's area is noise.
    blob_least_area: float = 0.45
    #: A disc of change smaller than this many men's radii is no piece.
    blob_least_r: float = 0.8
    #: A disc's area may be this many times its widest inscribed disc's (men touching).
    blob_fill: float = 1.45
    #: Wider than a common striker (mm across) a disc must be round: a palm is not.
    wide_disc_mm: float = 60.0
    #: ... and then fill at least 1/this of its widest disc's area.
    wide_blob_fill: float = 1.3
    #: The largest striker's diameter (mm): 75 mm strikers exist.
    striker_most_mm: float = 76.0
    #: A disc of change is up to this much wider than its piece (blur, shadow).
    size_slack: float = 1.1
    #: A disc mostly (this share) on an arm reaching in is a fingertip, no piece.
    on_arm_share: float = 0.5
    #: A disc's centre is the mean of its pixels this deep (share of its radius).
    blob_centre_depth: float = 0.8
    #: A disc of change is a pixel wider than its distance transform says.
    blob_r_pad: float = 1.0
    #: Change larger than this many men's areas that is no disc hides the board.
    hides_from_area: float = 1.2
    #: Men packed together (discs cut from one region) are this round.
    packed_round: float = 0.8
    #: At most this many men are cut from one region (18 men, the queen, the striker).
    packed_most: int = 20
    #: A packed man's disc is this deep at least (men's radii).
    packed_least_depth: float = 0.6
    #: The men explain the region when at most this share of it is left.
    packed_left: float = 0.3
    #: ... and it is at most this many men's areas a man.
    packed_most_area: float = 1.6
    #: Change along the surface's edge wider than this many men's radii is an arm.
    edge_run_radii: float = 3.0
    #: A lone disc is looked for in a window this many strikers' radii wide.
    lone_window: float = 2.2
    #: A lone disc is this many men's radii at least.
    lone_least_r: float = 0.7
    #: A lone disc's area is at most this many times its widest disc's.
    lone_fill: float = 1.5
    #: A man's outline ring is this wide (px) when fitting centres.
    ring_width_px: float = 1.2
    #: A man's centre is refined within this many px (the network's grid is 8 mm).
    refine_px: float = 4.0
    #: An outline is measured within this many px of its circle.
    outline_band_px: float = 2.0
    #: ... best over centres within this many px (the network's 8 mm grid).
    outline_reach_px: int = 2
    #: ... and these radii (px): a blurred man's rim is a little in or out.
    man_radii_px: tuple[float, ...] = (6.5, 7.25, 8.0, 8.75)
    #: A man whose outline is less round than this is no man (real men 0.95-0.99, men
    #: by a hand over a printed line 0.9-0.93, a machine's corner 0.8-0.84).
    round: float = 0.87
    #: Where the board's edges are this share of the view's or more, they are print.
    print_edge_share: float = 0.5

    # -- classes by colour and size (no set learned) --
    #: Kept board: a disc of change this many men's radii across is the striker
    #: (strikers 38 mm and more, men 30-32 mm).
    striker_from: float = 1.18
    #: Cold, blur widens a disc: the striker from this many men's radii ...
    striker_cold: float = 1.35
    #: ... a man up to this many, in doubt between.
    man_cold: float = 1.12
    #: A man's colour is read on a disc this share of his radius (his rim blurs).
    class_disc: float = 0.7
    #: A face this much redder (a*) than the plywood is the queen's.
    queen_redder: float = 15.0
    #: A face this much darker (L) than the board under it is a black man's.
    black_darker: float = 12.0
    #: A white man not hot whose face is this much redder than the plywood may be the
    #: queen (renderer: 99% of white men under 8.8, 99% of queens over 13).
    redder: float = 10.5
    #: Red print is looked for this many radii round a piece ...
    red_print_reach: float = 1.3
    #: ... at this percentile of its redness (a dot is small).
    red_percentile: float = 90.0
    #: A piece's face is its median over this share of a man's radius.
    face_disc: float = 0.6

    # -- the board's centre, cold --
    #: Cold, within this of the centre (mm) no change can be judged: heat alone speaks.
    centre_blind_mm: float = 30.0
    #: ... and a little less of it is trusted.
    centre_less: float = 0.1
    #: The roundest outline at the centre is looked for within this many px (14 mm).
    centre_reach_px: int = 7
    #: A light man's outline lies this many px (5 mm) or more off the centre.
    off_centre_px: float = 2.5
    #: ... and is clearly his when this much rounder than the outline at the centre.
    clearly_rounder: float = 0.1
    #: ... and lighter than this percentile of the plywood.
    light_percentile: float = 99.0
    #: A red face at the centre this near (CIELAB) to the red printed elsewhere is ink.
    print_ink: float = 12.0
    #: ... or whose hue (CIELAB, degrees) lies this near its hue: a filled centre circle
    #: is the ink deeper (real dev photos: centre circles 0.5-5.6, a magenta queen 18.5).
    print_hue: float = 10.0
    #: ... the print's red read this far (mm) or more from the centre ...
    print_ink_away_mm: float = 40.0
    #: ... when this many px of it are seen.
    print_ink_least_px: int = 30

    # -- discs of change the network missed --
    #: A disc within this many men's radii of a piece kept is that piece.
    taken_radii: float = 1.2
    #: A missed disc's confidence: this base ...
    blob_base: float = 0.22
    #: ... this much for being round (from `round_lo` to `round_hi`) ...
    blob_round: float = 0.1
    round_lo: float = 0.75  #: (how round a disc of change is: area to inscribed disc)
    round_hi: float = 0.9  #: (ramp's top)
    #: ... and this much for its change's strength.
    blob_strength: float = 0.25
    #: Against the kept board a clear disc of change is this much surer.
    kept_more: float = 0.2
    #: A weak proposal standing as a lone disc: this base ...
    lone_base: float = 0.27
    #: ... this much for its change's strength ...
    lone_strength: float = 0.25
    #: ... and this much times the network's heat.
    lone_heat: float = 0.2

    # -- 4. the set in use, cold --
    #: Two looks or a larger set are read from this many pieces at least.
    set_least: int = 3
    #: Of a larger set, the piece this much wider than most is the striker ...
    set_striker_wider: float = 1.12
    #: ... or else the one whose colour lies this far (CIELAB) from every other ...
    set_striker_apart: float = 15.0
    #: ... and this many times the usual distance between them.
    set_striker_apart_times: float = 2.0
    #: Two looks of men are two sets this far apart (CIELAB: medium-brown wooden men
    #: lie 20 or more from dark ones) ...
    looks_far: float = 20.0
    #: ... and this many times farther than each look's own spread ...
    looks_apart: float = 3.0
    #: ... (a look's spread taken as this at the least: black men spread 3-8) ...
    looks_least_spread: float = 3.0
    #: ... and their hues this far apart (a shadow moves lightness only).
    looks_hue: float = 12.0
    #: The view's men are learned from this many sure men of each colour at least.
    men_least: int = 2
    #: A man looks like the other colour's men when this many times nearer them.
    nearer_times: float = 1.5
    #: A class's colour spreads this much at the least (CIELAB): a camera's noise and the
    #: light across the board move a piece's median colour by about this much.
    set_least_spread: float = 5.0
    #: A class's spread is this many times its pieces' median distance from its look.
    set_spread_times: float = 1.5
    #: A class's look moves this far towards each confirmed piece.
    set_rate: float = 0.2
    #: Two looks this alike (nearest distance over the second's) leave a piece in doubt ...
    set_alike: float = 0.7
    #: ... and so does a piece this many spreads from the nearest look.
    set_far: float = 4.0

    # -- 5. doubt --
    #: A less sure piece within this many men's radii of one kept is that piece.
    same_place_radii: float = 1.15
    #: What hides the board is looked for in a ring from this many px out ...
    ring_from_px: float = 3.0
    #: ... to this many px out.
    ring_to_px: float = 9.0
    #: A piece whose ring is this share hidden is beside what hides the board.
    hidden_ring: float = 0.2
    #: ... and from this share a weakly seen piece may be a fingertip.
    touch_ring: float = 0.05
    #: A piece's centre lies at least this far (mm) in from the surface's edge (a man's
    #: radius is 15.5 mm; a little less for the calibration's error).
    edge_mm: float = 11.0

    # -- the per-frame glance --
    #: Pieces at rest explain change this much wider (px) in the glance.
    glance_pad_px: float = 3.0
    #: Change larger than this many men's areas that no piece explains is a hand.
    hand_men: float = 6.0
    #: A region of change this share of a man's area or more is a piece seen moving.
    glance_least_area: float = 0.4
    #: A piece seen moving has this confidence (never sure).
    glance_conf: float = 0.5


#: The rules a `DetectorParams.off` may name, each what it does (the ablation bench
#: switches each off in turn).
RULES = {
    "pattern": "a proposal repeated at its symmetric places is judged against the print",
    "plywood_man": "cold, a man fairly seen over little change, his outline round, counted",
    "cold_hot": "cold, a hot proposal over little change counted (a little less sure)",
    "lone_disc": "a proposal barely seen that is a lone disc of change is a piece",
    "centre_white": "cold, a light man's round outline off the centre is a white man",
    "red_pattern": "cold, a queen over red print at its symmetric places is in doubt",
    "redder": "a white man not hot whose face is redder than the plywood may be the queen",
    "refine": "against the kept board a man's centre is refined along his outline",
    "missed_discs": "discs of change the network missed are pieces",
    "agreed_disc": "a lone disc barely seen, changed through, its class agreed, is sure",
    "centre_queen": "cold, a red round outline at the centre is the queen, in doubt",
    "centre_ink": "cold, a red face at the centre of the print's red hue is the print",
    "two_looks": "cold, men of one class parting into two looks are two sets",
    "larger_set": "cold, three strikers or more are the men of a larger set",
    "men_of_view": "cold, a man in doubt is judged by the men the view is sure of",
    "hidden_ring": "a piece beside what hides the board is in doubt",
    "cold_sure": "cold, a sure piece whose outline is no circle, or a red-print queen, in doubt",
    "set_size": "a piece over a set's size (law I) is in doubt, not counted",
}

#: The numbers the kiosk and `tableside vision detect` run with.
PARAMS = DetectorParams()
