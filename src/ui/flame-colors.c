/* flame-colors: palettes as hue bands in HSL space (see flame-colors.h). */
#include <math.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "ui/flame-colors.h"

enum palette {
	P_HOT, P_MEM, P_IO, P_WAKEUP, P_CHAIN, P_JAVA, P_JS, P_PERL,
	P_RED, P_GREEN, P_BLUE, P_AQUA, P_YELLOW, P_PURPLE, P_ORANGE,
	NR_PALETTES
};

static const char *const palette_names[NR_PALETTES] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl",
	"red", "green", "blue", "aqua", "yellow", "purple", "orange",
};

/* A band: hue range (degrees), saturation and lightness ranges. */
struct band {
	double h0, h1, s0, s1, l0, l1;
};

/* Per palette: user frames, kernel frames. */
static const struct band bands[NR_PALETTES][2] = {
	[P_HOT]    = { { 0, 28, .80, .95, .50, .62 }, { 36, 52, .85, .95, .50, .60 } },
	[P_MEM]    = { { 90, 135, .55, .75, .42, .58 }, { 158, 172, .55, .70, .40, .52 } },
	[P_IO]     = { { 205, 235, .55, .75, .55, .70 }, { 252, 270, .45, .65, .58, .70 } },
	[P_WAKEUP] = { { 176, 192, .50, .70, .48, .62 }, { 176, 192, .25, .40, .45, .58 } },
	[P_CHAIN]  = { { 210, 232, .55, .75, .55, .70 }, { 222, 238, .40, .55, .45, .58 } },
	[P_RED]    = { { 355, 365, .70, .85, .55, .68 }, { 355, 365, .40, .55, .45, .55 } },
	[P_GREEN]  = { { 110, 128, .55, .70, .45, .60 }, { 110, 128, .30, .45, .38, .50 } },
	[P_BLUE]   = { { 215, 230, .70, .85, .60, .72 }, { 215, 230, .40, .55, .50, .62 } },
	[P_AQUA]   = { { 178, 190, .50, .65, .50, .62 }, { 178, 190, .28, .40, .42, .54 } },
	[P_YELLOW] = { { 50, 58, .75, .90, .52, .62 }, { 50, 58, .45, .60, .45, .55 } },
	[P_PURPLE] = { { 280, 300, .45, .60, .60, .72 }, { 280, 300, .25, .40, .50, .60 } },
	[P_ORANGE] = { { 26, 38, .85, .95, .52, .60 }, { 26, 38, .55, .70, .45, .52 } },
};

int flame_palette(const char *name)
{
	for (int i = 0; i < NR_PALETTES; i++)
		if (!strcmp(palette_names[i], name))
			return i;
	return -1;
}

const char *flame_palette_names(void)
{
	return "hot, mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, "
	       "purple, orange";
}

static double hue_channel(double p, double q, double t)
{
	if (t < 0)
		t += 1;
	if (t > 1)
		t -= 1;
	if (t < 1.0 / 6)
		return p + (q - p) * 6 * t;
	if (t < 0.5)
		return q;
	if (t < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - t) * 6;
	return p;
}

static struct rgb hsl(double h, double s, double l)
{
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;

	h = fmod(h, 360) / 360;
	return (struct rgb){
		(uint8_t)lround(255 * hue_channel(p, q, h + 1.0 / 3)),
		(uint8_t)lround(255 * hue_channel(p, q, h)),
		(uint8_t)lround(255 * hue_channel(p, q, h - 1.0 / 3)),
	};
}

/* Hue, saturation and lightness move with different parts of v, so that
 * neighbours differ even when v does little. */
static struct rgb from_band(const struct band *b, double v)
{
	double v2 = fmod(v * 7.13, 1), v3 = fmod(v * 31.7, 1);

	return hsl(b->h0 + (b->h1 - b->h0) * v, b->s0 + (b->s1 - b->s0) * v2,
		   b->l0 + (b->l1 - b->l0) * v3);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

static bool java_package(const char *name)
{
	static const char *const prefixes[] = {
		"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/",
	};

	if (name[0] == 'L')
		name++;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* Language palettes pick a single-hue palette from the name's shape. */
static int language_palette(int p, const char *name, unsigned kind)
{
	if ((kind & FRAME_KERNEL) || ends_with(name, "_[k]"))
		return P_ORANGE;
	if (ends_with(name, "_[i]") || (kind & FRAME_INLINED))
		return P_AQUA;
	if (ends_with(name, "_[j]"))
		return P_GREEN;
	switch (p) {
	case P_JAVA:
		if (java_package(name) || strstr(name, ":::"))
			return P_GREEN;
		return strstr(name, "::") ? P_YELLOW : P_RED;
	case P_JS:
		if (strstr(name, ".js") || strchr(name, '/'))
			return P_GREEN;
		if (strstr(name, "::"))
			return P_YELLOW;
		return strchr(name, ':') ? P_AQUA : P_RED;
	default:	/* perl */
		if (strstr(name, "Perl") || strstr(name, ".pl"))
			return P_GREEN;
		return strstr(name, "::") ? P_YELLOW : P_RED;
	}
}

struct rgb flame_color(int palette, const char *name, unsigned kind, double v)
{
	bool kernel = (kind & FRAME_KERNEL) || ends_with(name, "_[k]");

	if (palette < 0 || palette >= NR_PALETTES)
		palette = P_HOT;
	if (palette == P_JAVA || palette == P_JS || palette == P_PERL)
		return from_band(&bands[language_palette(palette, name, kind)][0], v);
	if (palette == P_CHAIN && ends_with(name, "_[w]"))
		return from_band(&bands[P_AQUA][0], v);
	return from_band(&bands[palette][kernel], v);
}

struct rgb flame_diff_color(double ratio, bool negate)
{
	double a = fabs(ratio) > 1 ? 1 : fabs(ratio);
	uint8_t x = (uint8_t)lround(235 - 200 * a);
	bool red = negate ? ratio < 0 : ratio > 0;

	if (ratio == 0)
		return (struct rgb){ 240, 240, 240 };
	return red ? (struct rgb){ 255, x, x } : (struct rgb){ x, x, 255 };
}

double flame_name_hash(const char *name)
{
	double v = 0, weight = 1, max = 0;

	/* up to 8 characters, each weighing less than the one before */
	for (int i = 0; name[i] && i < 8; i++) {
		v += weight * ((unsigned char)name[i] % 10) / 10.0;
		max += weight * 0.9;
		weight *= 0.7;
	}
	return max > 0 ? v / (max + 0.1) : 0;
}
