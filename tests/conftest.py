"""Shared test helpers, and the ``slow`` marker.

``python -m pytest`` runs the quick suite on two pytest-xdist workers (docs/testing.md has what it
measures): tests marked ``@pytest.mark.slow`` (or listed in :data:`SLOW` by their module,
:data:`SLOW_TESTS` by name) are deselected. ``--slow`` runs
everything in one process, as ``.ci/run`` and README's test command do. The selection never
changes a test's numbers: every simulated test has its own fixed seed.
"""

from __future__ import annotations

import sys

import pytest

from cardlab.cli.main import main

#: Whole modules that are slow (a browser, a Dask cluster, the C build, mypy over the package,
#: every README command in a subprocess).
SLOW = {"test_site_browser.py", "test_cluster.py", "test_core_build.py", "test_types.py",
        "test_readme_examples.py", "test_web_server.py", "test_web_browser.py", "test_web_poker_browser.py",
        "test_web_api.py", "test_web_tasks.py", "test_web_blackjack_browser.py", "test_club_live.py",
        "test_club_web.py"}

#: Single tests measured among the longest (``--durations``: 10-50 s each on the loaded
#: two-core machine): millions of hands against an oracle, whole-game analyses of pay-table
#: files, every simulating command in a subprocess, the long simulations and exact equities.
SLOW_TESTS = {
    "test_script_corpus.py::test_deal_examples_against_deal_itself_on_200000_deals",
    "test_script_corpus.py::test_gambling_3nt_shapes_within_sampling_error_of_deal",
    "test_script_corpus.py::test_dealerv2_bktfreq2dx3_within_sampling_error_of_its_published_output",
    "test_dealer_scripts.py::test_ddline_lines_read_back_and_agree_with_the_dd_tables",
    "test_dealer_scripts.py::test_par_per_deal_on_a_hand_built_grand_slam_and_against_dd_tables",
    "test_solver_turn.py::test_turn_without_turn_bets_is_the_river_games_weighted_by_chance",
    "test_solver_flop.py::test_flop_value_within_the_lp_and_best_response_bounds",
    "test_solver_flop.py::test_flop_reports_reloads_and_names_isomorphic_cards",
    "test_solver_flop.py::test_isomorphic_and_full_solves_agree_within_their_bounds",
    "test_solver_flop.py::test_isomorphic_tree_gives_the_full_trees_values[Ah 7h 2h]",
    "test_solver_flop.py::test_flop_memory_is_refused_over_the_limit",
    "test_solver_flop.py::test_best_response_on_threads_gives_the_same_value",
    "test_solver_turn.py::test_memory_estimate_is_what_the_solve_grows_by",
    "test_solver_flop.py::test_ranges_break_the_symmetry",
    "test_solver_flop.py::test_symmetric_flop_against_the_lp",
    "test_solver_flop.py::test_flop_command",
    "test_solver_options.py::test_the_lp_refuses_rake",
    "test_solver_options.py::test_flop_report_weights_each_class_by_its_flops",
    "test_suitplay_history.py::test_suitplay_history_against_the_brute_force",
    "test_suitplay_line.py::test_no_named_line_beats_the_best_line",
    # casino (issue 43): about 1 s of CPU each; the Let It Ride and Three Card Poker cases and the
    # Mississippi Stud brute force stay quick
    "test_casino.py::test_mississippi_stud_as_published",
    # hold'em side bets (issue 43): every seven-card hand counted (1-2 s on a loaded machine)
    "test_casino_side_bets.py::test_trips_as_published",
    "test_casino_side_bets.py::test_the_other_trips_tables_from_the_category_counts[pays0-0.9018%]",
    "test_casino_side_bets.py::test_the_other_trips_tables_from_the_category_counts[pays1-1.9040%]",
    "test_casino_side_bets.py::test_the_other_trips_tables_from_the_category_counts[pays2-6.5234%]",
    "test_casino_side_bets.py::test_simulation_agrees_with_exact[ultimate-holdem]",
    "test_casino_side_bets.py::test_side_bets_ride_along_with_the_main_game",
    "test_casino_side_bets.py::test_a_five_card_progressive_in_ultimate_holdem_pays_on_the_hole_cards_and_flop",
    # blackjack (issue 43): six-deck analyses, the simulation and the CLI run, 1-7 s each
    # blackjack resplits (issue 43): brute forces that deal whole rounds, the six-deck simulation
    "test_casino_blackjack_split.py::test_resplits_equal_a_brute_force_that_deals_rounds_in_order[rules0-5-1]",
    "test_casino_blackjack_split.py::test_resplits_equal_a_brute_force_that_deals_rounds_in_order[rules1-5-1]",
    "test_casino_blackjack_split.py::test_resplits_equal_a_brute_force_that_deals_rounds_in_order[rules2-6-1]",
    "test_casino_blackjack_split.py::test_resplits_equal_a_brute_force_that_deals_rounds_in_order[rules3-9-1]",
    "test_casino_blackjack_split.py::test_resplits_equal_a_brute_force_that_deals_rounds_in_order[rules4-0-6]",
    "test_casino_blackjack_split.py::test_resplits_agree_with_a_seeded_simulation_of_the_same_play",
    "test_casino_blackjack_split.py::test_two_hands_cdp1_is_the_one_hand_value_twice",
    "test_casino_blackjack_split.py::test_the_disputed_single_deck_split_of_twos_against_a_six",
    "test_casino_blackjack_split.py::test_the_second_hand_knowing_the_first_equals_an_expectimax_brute_force",
    "test_casino_blackjack_split.py::test_the_disputed_split_with_the_second_hand_knowing_the_first",
    "test_casino_blackjack_split.py::test_cli_takes_the_split_rules_and_refuses_bad_ones",
    # effects of removal: twelve six-deck and eleven one-deck analyses
    "test_casino_blackjack_removal.py::test_the_published_row_needs_late_surrender",
    "test_casino_blackjack_efficiency.py::test_playing_efficiencies_are_the_published_ones",
    "test_casino_blackjack_efficiency.py::test_cli_prints_a_counts_three_figures_and_refuses_bad_tags",
    "test_casino_blackjack_removal.py::test_betting_correlations_from_single_deck_effects_are_the_published_ones",
    "test_casino_blackjack.py::test_six_deck_basic_strategy_is_the_published_chart",
    "test_casino_blackjack.py::test_surrender_and_payouts",
    "test_casino_blackjack.py::test_early_surrender_against_a_ten_and_an_ace",
    "test_casino_blackjack.py::test_insurance_as_a_decision_equals_the_brute_force",
    "test_casino_blackjack.py::test_seeded_simulation_agrees_with_the_exact_edge",
    "test_casino_blackjack.py::test_cli_prints_the_table_and_refuses_bad_input",
    "test_casino_blackjack.py::test_brute_force_over_every_card_of_a_tiny_shoe[cards1-True]",
    "test_casino_blackjack.py::test_hand_values_list_every_first_hand_with_its_best_decision",
    "test_casino_blackjack.py::test_effects_of_removal_average_to_zero_under_a_fixed_strategy",
    "test_casino_blackjack.py::test_hand_values_match_published_exact_figures[rules4-hand4-published4]",
    "test_casino.py::test_simulation_agrees_with_exact[mississippi-stud-standard]",
    "test_casino_baccarat.py::test_every_bet_by_brute_force_on_a_small_shoe",  # 1.5 s: 60,480 deals by hand
    # Caribbean Stud on the full deck: 5-10 s of CPU for the counts (shared by the two tests)
    "test_casino_caribbean.py::test_caribbean_stud_as_published",
    "test_casino_caribbean.py::test_fixed_strategies_as_published",
    # Casino Hold'em: the full deck about a minute of CPU; the 11-card brute force and the 24-card
    # simulation 1-3 s
    "test_casino_holdem.py::test_casino_holdem_as_published",
    "test_casino_holdem.py::test_casino_holdem_by_brute_force[As Ks Qs Js Ts 9h 8h 7h 6d 5d Ad-rules1-<lambda>]",
    "test_casino_holdem.py::test_simulation_agrees_with_exact",
    # Ultimate Texas Hold'em: the full deck about two minutes of CPU; the brute forces (plain loops
    # over 10-card decks) and the 24-card simulation 1-2 s each
    "test_casino_uth.py::test_uth_as_published",
    "test_casino_uth.py::test_uth_by_brute_force[As Ks Qs Js Ts 9h 8h 7h 6d 5d-rules0-<lambda>]",
    "test_casino_uth.py::test_uth_by_brute_force[Ac Ad Kc Kd Qc Qd Jc Jd Th 9h-rules1-<lambda>]",
    "test_casino_uth.py::test_simulation_agrees_with_exact",
    "test_casino_uth.py::test_thb_as_published",
    "test_casino_uth.py::test_thb_by_brute_force[As Ks Qs Js Ts 9h 8h 7h 6d 5d]",
    "test_casino_uth.py::test_thb_by_brute_force[Ac Ad Kc Kd Qc 7d 6h 5h 4s 2s]",
    "test_casino_uth.py::test_thb_simulation_agrees_with_exact",
    # the rules in words (issue 43): the hold'em games' full decks (a minute or two of CPU each), the
    # full-deck Mississippi Stud rules (1-2 s per rule proved), the larger brute forces (2-3 s)
    "test_casino_rules_text.py::test_casino_holdem_call_rule",
    "test_casino_rules_text.py::test_holdem_bonus_flop_rule",
    "test_casino_rules_text.py::test_holdem_bonus_turn_rule",
    "test_casino_rules_text.py::test_holdem_bonus_standard_deviation_conventions",
    "test_casino_rules_text.py::test_uth_flop_rule",
    "test_casino_rules_text.py::test_stud_rules_as_printed",
    "test_casino_rules_text.py::test_a_changed_clause_costs_more",
    "test_casino_rules_text.py::test_stud_rules_by_brute_force_on_a_small_deck[J-A]",
    "test_casino_rules_text.py::test_casino_holdem_rule_by_brute_force[Ac Ad Kc Kd Qc 7d 6h 5h 4s 2s-rules1-<lambda>]",
    "test_strategy.py::test_random_deals_against_a_brute_force_over_full_tables",
    "test_strategy.py::test_a_strategy_against_itself_gives_zero",
    "test_strategy.py::test_two_fixed_contracts_agree_with_bridge_makes",
    "test_strategy.py::test_published_stayman_or_not_iv",
    "test_strategy.py::test_one_and_two_workers_give_the_same_figures",
    # issue 39: the workbench's makes answers solve double dummy twice (the page's and the CLI's), 6 s each
    "test_web_answers.py::test_makes_shows_contracts_side_by_side_as_the_cli",
    "test_web_answers.py::test_which_contract_as_typed_is_bridge_makes_with_the_two_hands",  # 12 deals twice
    "test_web_casino_solve.py::test_cancel_keeps_the_partial_solve_marked_partial_as_the_cli",  # a 2 s solve
    "test_web_answers.py::test_several_contracts_are_each_compared_with_the_first_on_the_same_deals",
    "test_web_answers.py::test_push_or_fold_verdict_and_charts_as_the_cli_and_the_published_chart",  # 2.4 s
    "test_web_answers.py::test_three_handed_push_or_fold_as_the_cli_with_charts_in_the_heads_up_colours",  # 5 s
    "test_web_answers.py::test_deals_are_drawn_as_the_cli_deals_them",  # 1.3 s: two dealings and the board files
    "test_web_casino_solve.py::test_casino_page_shows_the_house_edge_first_as_the_cli_and_by_hand",  # 1.5 s: 3 bets
    "test_web_blackjack.py::test_blackjack_page_answers_as_the_command_it_names",  # 5 s: eleven exact analyses twice
    "test_web_blackjack.py::test_six_deck_chart_is_the_published_chart",  # 6 s: six decks twice
    "test_web_blackjack.py::test_every_cell_says_its_action_in_words_and_the_legend_names_every_letter",  # 1.5 s
    "test_web_blackjack.py::test_shoe_page_spread_ruin_and_true_counts_as_the_command",  # 2 s: two analyses, 600k rounds
    "test_web_blackjack.py::test_shoe_page_answers_as_the_command_and_holds_the_exact_edge_in_its_interval",  # 1.2 s
    "test_web_blackjack.py::test_cancel_keeps_the_rounds_played_marked_partial_as_the_command",  # 1 s: two analyses
    "test_web_blackjack.py::test_the_shoe_page_takes_early_surrender_and_resplits_but_not_a_post_split_play",  # 4 s: resplit analyses twice
    "test_club_bws.py::test_load_any_reads_both",
    "test_club_bws.py::test_cli_scores_a_bws",
    "test_boardsets.py::test_a_large_board_set_is_written_in_flat_memory",
    "test_boardsets.py::test_a_streamed_json_set_is_the_json_of_the_set",
    "test_full_disk.py::test_a_full_disk_leaves_the_previous_file_and_one_line",
    "test_full_disk.py::test_an_interrupted_json_set_is_valid_json_of_the_boards_dealt",
    "test_full_disk.py::test_a_json_set_interrupted_before_any_board_keeps_the_previous_file",
    "test_full_disk.py::test_a_full_disk_under_a_results_site_names_the_folder_and_leaves_none",
    # last round's writers (issues 43, 44): each command twice in a subprocess; interrupted long runs
    "test_full_disk.py::test_last_rounds_writers_on_a_full_disk_keep_the_previous_file",
    "test_full_disk.py::test_last_rounds_long_commands_interrupted_leave_the_old_file_or_a_whole_result",
    "test_progress.py::test_every_simulating_command_reports_through_the_one_place",
    "test_video_paytable.py::test_bom_file_equals_the_builtin_game",
    "test_video_paytable.py::test_wild_file_and_fractional_pays",
    "test_video_paytable.py::test_crlf_file_reproduces_published_return",
    "test_poker_evaluate.py::test_millions_of_random_hands_as_the_oracle_values_them",
    "test_poker_evaluate.py::test_every_seven_card_hand_by_the_compiled_evaluator",
    "test_poker_evaluate.py::test_hands_with_repeated_cards_as_the_oracle_values_them",
    "test_cli_bridge_stats.py::test_plot_is_written",
    "test_dd.py::test_tables_and_par_agree_with_endplay",
    "test_dd.py::test_published_full_table_and_par_ffb",
    "test_site.py::test_site_pages_are_valid_and_every_link_resolves",
    "test_site.py::test_cli_writes_a_site_to_a_directory",
    "test_distribution.py::test_table_and_plot_methods",
    "test_results_objects.py::test_stopping_early_with_workers_never_hangs",
    "test_plots.py::test_equity_bars_and_grid",
    "test_poker_equity.py::test_simulated_heads_up_preflop_within_interval",
    "test_poker_equity.py::test_three_ranges_preflop_answered_exactly",
    "test_poker_equity.py::test_three_way_ranges_exact_and_simulated",
    "test_poker_equity.py::test_aa_vs_kk_all_suit_combinations",
    "test_poker_equity_hilo_split.py::test_hi_lo_split_on_the_flop_against_the_brute_force",
    "test_poker_equity.py::test_rank_class_counting_against_the_numpy_oracles",
    "test_dd_routes.py::test_one_declarer_matches_the_full_tables_on_every_deal",
    "test_dd_routes.py::test_makes_matches_the_full_tables_on_the_same_deals",
    "test_web_poker_views.py::test_video_view_equals_the_cli_and_the_published_return",
    "test_web_poker_views.py::test_an_uploaded_pay_table_is_read_as_the_cli_reads_the_file",
    "test_video.py::test_folded_route_equals_every_dealt_hand_on_the_full_deck",
    # the longest of the quick run (--durations, loaded machine): every flop against plain loops,
    # closed-form Omaha counts, the whole results site written twice, ICM over 8! orders, the
    # constant-time and bounded-time readers on large inputs, the hardest SuitPlay reference
    "test_poker_board.py::test_all_flops_against_plain_loop_over_every_flop",
    "test_poker_generic.py::test_omaha_closed_form_counts",
    "test_hardening.py::test_a_results_site_is_swapped_in_whole_or_not_at_all",
    "test_tournament_icm.py::test_against_every_finishing_order",
    "test_pbn_codec.py::test_board_numbers_are_looked_up_in_constant_time",
    "test_pbn_codec.py::test_a_lin_of_many_boards_reads_in_bounded_time",
    "test_suitplay.py::test_suitplay_reference_outputs",
    # the longest of the quick run in December (--durations, load 4 on two cores: 5-25 s each);
    # a parametrized test keeps its cheaper cases quick, the costly ones named by their id
    "test_poker_generic.py::test_omaha_counts_against_plain_loops[A*!xx]",
    "test_video.py::test_small_deck_against_brute_force"
    "[deuces-wild-full-pay-2c 2d 2h 2s 9h Th Jh Qh Kh Ah 9s Ts Js-0-pay]",
    "test_video.py::test_small_deck_against_brute_force"
    "[joker-poker-kings-or-better-Ts Js Qs Ks As Ah Ad Kd Qd 9d 3c 4c-1-pay]",
    "test_dd_routes.py::test_target_mode_make_or_fail_matches_the_full_tables_on_every_deal",
    "test_video.py::test_simulation_identical_whatever_the_workers[None]",
    "test_video.py::test_simulation_agrees_with_exact_return",
    "test_video_cli.py::test_workers_do_not_change_the_simulation",
    "test_video_cli.py::test_simulate_and_plot",
    "test_poker_board.py::test_every_class_against_plain_loops[Jc Jd 9c]",
    "test_poker_board.py::test_every_class_against_plain_loops[Th 9h 8c]",
    "test_poker_board.py::test_every_class_against_plain_loops[Ks Kd 2c]",
    "test_poker_board.py::test_only_four_flops_allow_no_straight_on_any_turn",
    "test_poker_board_omaha.py::test_classes_against_the_plain_loop[Kd Kc 7h]",
    "test_poker_games.py::test_exact_equity_against_plain_enumeration"
    "[razz-specs0-2c 2h 3d 3h 4d 4h 5c 5d 6c 6d 6h 6s 7c 7h 7s Tc Td Th Ts Jc Jd]",
    "test_poker_games.py::test_razz_rank_hands_are_the_suited_ones",
    "test_poker_equity.py::test_omaha_matches_brute_force[holes4--2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s"
    " 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d-omaha]",
    "test_poker_equity.py::test_omaha_matches_brute_force[holes2-Ts 9h 5c--omaha5]",
    "test_poker_equity.py::test_aces_against_kings_with_no_suit_shared",
    "test_poker_equity.py::test_compiled_showdown_against_the_numpy_oracles[omaha6-6-True]",
    "test_poker_equity_cli.py::test_csv_output_file_and_plot",
    "test_tournament_pushfold.py::test_plot",
    "test_tournament_pushfold3.py::test_triple_weights_by_brute_force[hands0]",
    "test_tournament_icm.py::test_floats_agree_with_the_fractions",
    "test_pbn_codec.py::test_boards_dd_score_and_site_read_the_same_boards[dd_records.pbn]",
    "test_poker_odds.py::test_exact_equals_brute_force[deck5-6-rules5]",
    "test_plots.py::test_figure_png_bytes_equal_the_saved_file",
    # over about 1.1 s of CPU each in the quick run of 2 December (per-test CPU, load 3 on two
    # cores); a cheaper case or sibling of each stays quick (named after the arrow)
    "test_suite_setup.py::test_slow_tests_run_only_with_the_slow_option",  # -> test_every_listed_slow_test_exists
    "test_dd_routes.py::test_ctrl_c_on_a_real_run_prints_what_was_done",  # -> ..._before_the_first_batch_...
    "test_dealer_edges.py::test_ctrl_c_exits_130_within_a_second_with_what_was_done[dealer]",  # -> [deal]
    "test_cli_reliability.py::test_ctrl_c_with_two_workers_exits_130_within_a_second[1e20]",  # -> [1000000000]
    "test_video_cli.py::test_ctrl_c_prints_the_partial_simulation_and_exits_130",  # -> test_video.py's Ctrl-C
    "test_fuzz.py::test_text_readers",
    "test_cli_numeric_options.py::test_fuzz_numeric_options",  # -> the listed bad values of every option
    "test_dd.py::test_file_of_published_records",
    "test_dd_routes.py::test_makes_make_or_fail_route_matches_the_full_tables",
    "test_dd_routes.py::test_target_mode_setting_leads_match_the_trick_counts[3-0]",
    "test_dd_routes.py::test_best_lead_matches_the_full_tables_on_every_deal[3-0]",
    "test_video.py::test_decks",
    "test_video_cli.py::test_deck_options",
    "test_video.py::test_several_decks_against_brute_force"
    "[jacks-or-better-9-6-As As As Ks Ks Qs Qh Jh Jh Th 9c 9c 2d-0-pay]",
    "test_video.py::test_small_deck_against_brute_force"
    "[double-double-bonus-9-6-Ac Ad Ah As 2c 3c 4c 5h 5d 5s 5c Kh Ks-0-double_double_bonus]",
    "test_hardening.py::test_wild_cards_weigh_every_reachable_class_whatever_the_pay_table",
    "test_hardening.py::test_deep_level_expression_through_the_command_line",
    "test_one_look.py::test_every_command_table_has_the_one_look"
    "[poker video jacks-or-better-9-6 --simulate 20000 --seed 1 --workers 1]",
    "test_sparse_points.py::test_what_cannot_be_counted_is_refused_at_once",
    "test_poker_equity.py::test_walked_deals_equal_the_listed_ones[True-specs4-5s6s7d-2c-holdem]",
    "test_poker_board.py::test_compiled_flop_loop_matches_the_vectorised_classes[QQ+, AK, 76s:0.5, AhKh-holdem]",
    "test_site.py::test_hand_records_show_the_real_solver_tables",
    "test_suitplay.py::test_brute_force[KJ98765-432-vacant3]",
    # 0.7-1.1 s each (same run): a module's second oracle case, the Ctrl-C and pay-table tests' second
    # case, the published charts but one
    "test_dd_routes.py::test_best_lead_matches_the_full_tables_on_every_deal[1-4]",
    "test_pbn_codec.py::test_boards_dd_score_and_site_read_the_same_boards[hands.pbn]",
    "test_poker_board.py::test_every_class_against_plain_loops[Qh 9c 2d]",
    "test_poker_generic.py::test_published_omaha_suit_distribution",
    "test_suitplay.py::test_brute_force[AQT98-5432-vacant0]",
    "test_suitplay.py::test_brute_force[AQJ9876-5432-vacant2]",
    "test_tournament_pushfold.py::test_icm_three_players_is_tighter",
    "test_tournament_pushfold.py::test_chart_json",
    "test_tournament_pushfold.py::test_ante_widens_the_ranges",
    "test_dd_routes.py::test_ctrl_c_before_the_first_batch_stops_at_once_with_the_empty_result[command1]",
    "test_dealer.py::test_dds_tricks_equal_the_double_dummy_table_of_each_deal",
    "test_pbn_codec.py::test_the_bulk_readers_agree_with_the_field_by_field_readers",
    "test_pbn_codec.py::test_a_deal_with_a_dash_hand_is_read_by_every_reader",
    "test_video.py::test_hand_against_plain_enumeration[As 4s 5s 6c 8d]",
    "test_video.py::test_hand_against_plain_enumeration[Kd Qc 7h 7s 3c]",
    "test_poker_equity.py::test_compiled_showdown_against_the_numpy_oracles[omaha5-5-True]",
    "test_poker_equity.py::test_compiled_showdown_against_the_numpy_oracles[omaha-4-True]",
    "test_poker_generic.py::test_weights_and_percentages",
    "test_suitplay_core.py::test_reference_combinations_same_on_both_routes[AJ32-K954]",
    "test_suitplay_core.py::test_reference_combinations_same_on_both_routes[AJ92-K843]",
    "test_dd_routes.py::test_target_mode_setting_leads_match_the_trick_counts[2-3]",
    "test_poker_generic.py::test_omaha_counts_against_plain_loops[RRON]",
    "test_poker_odds.py::test_compiled_simulation_is_the_same_for_any_number_of_threads",
    # issue 38's hostile inputs (subprocesses whose point is the process, or 20 million Omaha
    # hands read before the refusal); the cheaper cases stay quick (after the arrow)
    "test_hostile_inputs.py::test_omaha6_random_range_and_all_flops_are_refused_with_the_size",  # -> bounds_are_exact
    "test_hostile_inputs.py::test_level_lines_of_a_script_on_stdin_are_levelled",
    "test_hostile_inputs.py::test_o_dash_for_a_results_site_writes_its_single_page_to_stdout",  # -> o_dash_means_stdout
    "test_hostile_inputs.py::test_ctrl_c_stops_bridge_joint_by_suits",
    "test_hostile_inputs.py::test_ctrl_c_while_the_command_starts_prints_no_traceback",  # -> ..._first_50_ms_...
    "test_hostile_inputs.py::test_workers_exit_when_their_parent_is_sigkilled",  # -> test_sighup_is_handled_as_sigterm
    "test_hostile_inputs.py::test_sighup_is_handled_as_sigterm[group]",  # -> [process]
    "test_hostile_inputs.py::test_dev_zero_stops_after_16_mib[odds-reels]",  # -> [boards]
    "test_hostile_inputs.py::test_dev_zero_stops_after_16_mib[teams]",
    "test_hostile_inputs.py::test_dev_zero_stops_after_16_mib[score]",
}


#: The package's caches that hold over 100 MB once filled (bounded, and kept on purpose: a
#: notebook asks for the table again), emptied after each test module so that the quick run's
#: process does not carry them to its end (see docs/testing.md, "Memory").
LARGE_CACHES = ("cardlab.poker.pushfold3.triple_table", "cardlab.poker.pushfold3._ordered")


@pytest.fixture(autouse=True, scope="module")
def _empty_large_caches():
    yield
    for name in LARGE_CACHES:
        module, _, attr = name.rpartition(".")
        if module in sys.modules:  # a module the tests never imported holds nothing
            getattr(sys.modules[module], attr).cache_clear()


def _whole_suite(config: pytest.Config) -> bool:
    """No paths given: the run is the suite of ``testpaths``, not a file or a test someone picked
    (an xdist worker, given its controller's arguments, never counts)."""
    return not hasattr(config, "workerinput") and config.args_source == pytest.Config.ArgsSource.TESTPATHS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (the whole suite, as CI does)")


#: Workers of the quick run of the whole suite (docs/testing.md, "Two workers"): two cores' worth.
QUICK_WORKERS = 2


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which turns ``numprocesses`` into workers
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``python -m pytest`` (the whole quick suite) runs on two pytest-xdist workers, a file's tests
    in one worker in their order; ``--slow`` (CI, README), a file or test named, ``-n`` given (``-n 0``:
    one process), ``--pdb`` or xdist absent stay one process."""
    if not (_whole_suite(config) and config.pluginmanager.has_plugin("xdist")) or config.getoption("--slow"):
        return
    if config.option.numprocesses is None and not config.getoption("usepdb") and config.option.dist == "no":
        config.option.numprocesses = QUICK_WORKERS
        config.option.dist = "loadfile"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test, run with --slow (CI always does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    matched = set()
    for item in items:
        keys = {f"{item.path.name}::{getattr(item, 'originalname', item.name)}", f"{item.path.name}::{item.name}"}
        matched |= keys & SLOW_TESTS
        if item.path.name in SLOW or keys & SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
    if _whole_suite(config) and SLOW_TESTS - matched:  # a renamed test or case would turn quick unseen
        raise pytest.UsageError(f"tests/conftest.py SLOW_TESTS names no test: {sorted(SLOW_TESTS - matched)}")
    if config.getoption("--slow"):
        return
    quick = [item for item in items if item.get_closest_marker("slow") is None]
    if len(quick) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("slow")])
        items[:] = quick


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]):
    """Run the CLI in-process: returns (exit status, stdout, stderr)."""

    def _run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return _run


@pytest.fixture
def ctrl_c_after(monkeypatch: pytest.MonkeyPatch):
    """``ctrl_c_after(n)``: from now on the engine's chunk runner raises KeyboardInterrupt (as
    Ctrl-C does) when chunk ``n`` (from 0) is due, after yielding the ``n`` chunks before it."""
    import cardlab.engine as engine

    real = engine.iter_chunks

    def arm(n: int) -> None:
        def interrupted(*args, **kwargs):
            for i, item in enumerate(real(*args, **kwargs)):
                if i == n:
                    raise KeyboardInterrupt
                yield item

        monkeypatch.setattr(engine, "iter_chunks", interrupted)

    arm.real = real  # type: ignore[attr-defined]
    return arm


@pytest.fixture
def reels_file():
    """The trade-stimulator reels: the 50-card deck without Ts and Jh on 5 reels of 10."""
    from pathlib import Path

    return Path(__file__).parent / "data" / "trade_stimulator.reels"
