/* flame-colors: the palettes of flame graphs (hot, mem, io, wakeup, chain,
 * java, js, perl, red, green, blue, aqua, yellow, purple, orange) and the
 * red/blue scale of differential graphs.
 *
 * A colour is picked from the palette by a value v in [0, 1): a name hash
 * (stable colours, --hash) or a per-frame pseudo-random value.  Kernel
 * frames get a hue of their own so they stand apart from user code.
 */
#ifndef PCL_FLAME_COLORS_H
#define PCL_FLAME_COLORS_H

#include <stdbool.h>
#include <stdint.h>

struct rgb {
	uint8_t r, g, b;
};

/* Palette by name; -1 when unknown. */
int flame_palette(const char *name);
/* The palette names, comma-separated, for messages. */
const char *flame_palette_names(void);

/* Colour of a frame named name (kind: enum frame_kind bits) in palette p. */
struct rgb flame_color(int palette, const char *name, unsigned kind, double v);

/* Differential colour: delta/max_abs in [-1, 1]; positive is red (grew)
 * unless negate. */
struct rgb flame_diff_color(double ratio, bool negate);

/* v in [0, 1) from a name: similar names start alike, so the first
 * characters weigh most (neighbours get neighbouring colours). */
double flame_name_hash(const char *name);

#endif
