/* SPDX-License-Identifier: GPL-2.0 */
/* lbs-sim map: run ops on a simulator instance, then draw it (map.c). */
#ifndef LBS_MAP_CMD_H
#define LBS_MAP_CMD_H

/* argv[0] is "map"; returns the exit status */
int lbs_sim_map_cmd(int argc, char **argv);

#endif
