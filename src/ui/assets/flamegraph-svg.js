// Interaction for pcl's SVG flame graphs: click a frame to zoom into it,
// "Reset Zoom" to go back, "Search" (or Ctrl-F) to highlight frames whose
// name matches a regular expression, with the share of the (zoomed) width
// they cover.  fgConf is written by pcl before this script.
"use strict";

var fgErrors = [];
window.addEventListener("error", function (e) {
	fgErrors.push(String(e.message || e));
});

var fg = {
	frames: [],	// { g, rect, text, title, name, x, w, y, fill }
	zoomed: null,
	term: null,
	ignorecase: false
};

function fgElement(id) {
	return document.getElementById(id);
}

function fgName(title) {
	var i = title.lastIndexOf(" (");
	return i < 0 ? title : title.substring(0, i);
}

// The label that fits the rectangle: the name, its start and "..", or "".
function fgFit(f, width) {
	var glyph = fgConf.fontsize * fgConf.fontwidth;
	var fit = Math.floor((width - 3) / glyph);
	var name = f.name;

	if (fit < 3)
		f.text.textContent = "";
	else if (name.length > fit)
		f.text.textContent = name.substring(0, fit - 2) + "..";
	else
		f.text.textContent = name;
}

function fgPlace(f, x, w) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	f.text.setAttribute("x", (x + 3).toFixed(2));
	fgFit(f, w);
}

function fgFrameOf(node) {
	while (node && node.parentNode && node.parentNode.id !== "frames")
		node = node.parentNode;
	if (!node || !node.parentNode)
		return null;
	return fg.frames[node.getAttribute("data-i")] || null;
}

// Deeper frames are higher up in a flame graph, lower in an icicle graph.
function fgDeeper(a, b) {
	return fgConf.inverted ? a.y > b.y : a.y < b.y;
}

function fgZoom(target) {
	var eps = 0.05, full = fgConf.width - 2 * fgConf.xpad;
	var scale = full / target.w;

	fg.zoomed = target;
	fgElement("unzoom").classList.remove("hide");
	fg.frames.forEach(function (f) {
		var covers = f.x <= target.x + eps && f.x + f.w >= target.x + target.w - eps;
		var inside = f.x >= target.x - eps && f.x + f.w <= target.x + target.w + eps;

		f.g.classList.remove("hide");
		f.g.classList.remove("parent");
		if (f === target) {
			fgPlace(f, fgConf.xpad, full);
		} else if (covers && fgDeeper(target, f)) {
			f.g.classList.add("parent");
			fgPlace(f, fgConf.xpad, full);
		} else if (inside && fgDeeper(f, target)) {
			fgPlace(f, fgConf.xpad + (f.x - target.x) * scale, f.w * scale);
		} else {
			f.g.classList.add("hide");
		}
	});
	fgSearch(fg.term);
}

function fgUnzoom() {
	fg.zoomed = null;
	fgElement("unzoom").classList.add("hide");
	fg.frames.forEach(function (f) {
		f.g.classList.remove("hide");
		f.g.classList.remove("parent");
		fgPlace(f, f.x, f.w);
	});
	fgSearch(fg.term);
}

// Highlights matches and returns the matched percentage of the view.
function fgSearch(term) {
	var re = null, spans = [], lo, hi, covered = 0, end = -1, pct = 0;

	fg.term = term || null;
	if (fg.term) {
		try {
			re = new RegExp(fg.term, fg.ignorecase ? "i" : "");
		} catch (e) {
			fgElement("matched").textContent = "Invalid regular expression";
			re = null;
		}
	}
	lo = fg.zoomed ? fg.zoomed.x : fgConf.xpad;
	hi = fg.zoomed ? fg.zoomed.x + fg.zoomed.w : fgConf.width - fgConf.xpad;
	fg.frames.forEach(function (f) {
		var hit = re !== null && re.test(f.name);

		f.rect.setAttribute("fill", hit ? "rgb(230,0,230)" : f.fill);
		// a hidden neighbour can overlap the zoom by the 0.1 px of rounding
		if (hit && !f.g.classList.contains("hide"))
			spans.push([Math.max(f.x, lo), Math.min(f.x + f.w, hi)]);
	});
	// nested matches lie within their ancestors: count the union once
	spans.sort(function (a, b) { return a[0] - b[0]; });
	spans.forEach(function (s) {
		if (s[1] <= s[0])
			return;
		if (s[0] >= end) {
			covered += s[1] - s[0];
			end = s[1];
		} else if (s[1] > end) {
			covered += s[1] - end;
			end = s[1];
		}
	});
	if (hi > lo)
		pct = 100 * covered / (hi - lo);
	fgElement("search").classList.toggle("active", re !== null);
	fgElement("search").textContent = re !== null ? "Reset Search" : "Search";
	if (re !== null || !fg.term)
		fgElement("matched").textContent = re !== null ? "Matched: " + pct.toFixed(1) + "%" : " ";
	return re !== null ? pct : null;
}

function fgAskSearch() {
	var term;

	if (fg.term) {
		fgSearch(null);
		return;
	}
	term = window.prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
		(fg.ignorecase ? ", ignoring case" : "") + "\nPress Ctrl-i to toggle case sensitivity", "");
	if (term)
		fgSearch(term);
}

function fgInit() {
	var gs = fgElement("frames").getElementsByTagName("g");
	var details = fgElement("details");

	for (var i = 0; i < gs.length; i++) {
		var g = gs[i], rect = g.getElementsByTagName("rect")[0];
		var title = g.getElementsByTagName("title")[0].textContent;

		g.setAttribute("data-i", i);
		fg.frames.push({
			g: g, rect: rect, text: g.getElementsByTagName("text")[0], title: title,
			name: fgName(title), x: parseFloat(rect.getAttribute("x")),
			w: parseFloat(rect.getAttribute("width")),
			y: parseFloat(rect.getAttribute("y")), fill: rect.getAttribute("fill")
		});
	}
	fgElement("frames").addEventListener("click", function (e) {
		var f = fgFrameOf(e.target);

		if (f)
			fgZoom(f);
	});
	fgElement("frames").addEventListener("mouseover", function (e) {
		var f = fgFrameOf(e.target);

		details.textContent = f ? fgConf.nametype + " " + f.title : " ";
	});
	fgElement("frames").addEventListener("mouseout", function () {
		details.textContent = " ";
	});
	fgElement("unzoom").addEventListener("click", fgUnzoom);
	fgElement("search").addEventListener("click", fgAskSearch);
	fgElement("ignorecase").addEventListener("click", function () {
		fg.ignorecase = !fg.ignorecase;
		fgElement("ignorecase").classList.toggle("active", fg.ignorecase);
		fgSearch(fg.term);
	});
	window.addEventListener("keydown", function (e) {
		if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) {
			e.preventDefault();
			fgAskSearch();
		} else if (e.ctrlKey && e.keyCode === 73) {
			e.preventDefault();
			fgElement("ignorecase").dispatchEvent(new Event("click"));
		} else if (e.keyCode === 27) {
			fgSearch(null);
			fgUnzoom();
		}
	});
	if (fgConf.search)
		fgSearch(fgConf.search);
}

// For scripts and tests: zoom to the first frame named so, search, reset.
window.pclFlame = {
	zoom: function (name) {
		for (var i = 0; i < fg.frames.length; i++) {
			if (fg.frames[i].name === name) {
				fgZoom(fg.frames[i]);
				return true;
			}
		}
		return false;
	},
	search: fgSearch,
	reset: function () {
		fgSearch(null);
		fgUnzoom();
	},
	visible: function () {
		return fg.frames.filter(function (f) {
			return !f.g.classList.contains("hide");
		}).length;
	},
	// where the first frame of that name is drawn now
	frame: function (name) {
		for (var i = 0; i < fg.frames.length; i++) {
			var f = fg.frames[i];

			if (f.name === name)
				return { x: parseFloat(f.rect.getAttribute("x")),
					 width: parseFloat(f.rect.getAttribute("width")),
					 hidden: f.g.classList.contains("hide"),
					 label: f.text.textContent };
		}
		return null;
	},
	errors: function () {
		return fgErrors.slice();
	}
};

// "#pcltest=[["zoom","f"],["visible"]]" runs the calls after loading and
// leaves their results as JSON in a hidden text element, #pcl-test-out.
function fgRunHashTest() {
	var m = /^#pcltest=(.*)$/.exec(location.hash), out = [], node;

	if (!m)
		return;
	try {
		JSON.parse(decodeURIComponent(m[1])).forEach(function (call) {
			out.push(window.pclFlame[call[0]].apply(null, call.slice(1)));
		});
	} catch (e) {
		fgErrors.push("test hook: " + e);
	}
	node = document.createElementNS("http://www.w3.org/2000/svg", "text");
	node.setAttribute("id", "pcl-test-out");
	node.setAttribute("class", "hide");
	node.textContent = JSON.stringify({ results: out, errors: fgErrors });
	document.documentElement.appendChild(node);
}

window.addEventListener("load", function () {
	fgInit();
	fgRunHashTest();
});
