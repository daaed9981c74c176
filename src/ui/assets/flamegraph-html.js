// pcl flame graph page.  The JSON block "pcl-data" holds the stack trie
// (parent and name of every node; node 0 is the root, parents come before
// their children), the frame names with their colours, and either each
// node's own weight or the samples (microsecond time deltas, stack node,
// weight) from which the weights of any time range are summed here.
"use strict";

var pclErrors = [];
window.addEventListener("error", function (e) {
	pclErrors.push(String(e.message || e));
});

(function () {
	var D = JSON.parse(document.getElementById("pcl-data").textContent);
	var N = D.parent.length;
	var parent = Int32Array.from(D.parent), nameOf = Int32Array.from(D.name);
	var names = D.names, colors = D.colors.map(function (c) {
		return "#" + (0x1000000 + c).toString(16).slice(1);
	});
	var depth = new Int32Array(N), maxDepth = 0;
	var childStart = new Int32Array(N + 1), children = new Int32Array(Math.max(N - 1, 0));
	var self = new Float64Array(N), total = new Float64Array(N);
	var baseTotal = null, maxDelta = 0;
	var timed = D.timed, nSamples = timed ? D.node.length : 0;
	var sTime = null, sNode = null, sWeight = null;
	var PAD = 10, ROW = D.frameheight, FONT = D.fontsize + "px " + (D.fonttype || "Verdana");
	var GLYPH = D.fontsize * D.fontwidth, CELL_US = 20000, ROWS = 50;
	var state = { focus: 0, re: null, term: "", range: null, drawn: 0, matched: null };
	var rows = [];		// per depth: [x, w, node] triples of drawn frames
	var el = {};

	// <html data-pcl-painted="N">: the first N canvas draws are on screen.
	// Set two animation frames after a draw (the first runs before the
	// frame is painted), so tests and scripts can wait for it instead of
	// guessing how long the browser needs.
	var draws = 0;

	function drawn() {
		var n = ++draws;

		requestAnimationFrame(function () {
			requestAnimationFrame(function () {
				if (n === draws)
					document.documentElement.setAttribute("data-pcl-painted", String(n));
			});
		});
	}

	// --- the trie ---------------------------------------------------------
	(function buildTree() {
		var fill, rank = new Int32Array(names.length), order = [];

		for (var i = 1; i < N; i++) {
			depth[i] = depth[parent[i]] + 1;
			if (depth[i] > maxDepth)
				maxDepth = depth[i];
			childStart[parent[i] + 1]++;
		}
		for (i = 0; i < N; i++)
			childStart[i + 1] += childStart[i];
		fill = childStart.slice(0, N);
		for (i = 1; i < N; i++)
			children[fill[parent[i]]++] = i;
		if (D.chart)
			return;	// a flame chart keeps time order
		for (i = 0; i < names.length; i++)
			order.push(i);
		order.sort(function (a, b) {
			return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0;
		});
		order.forEach(function (n, r) { rank[n] = r; });
		for (i = 0; i < N; i++) {
			var a = childStart[i], b = childStart[i + 1];

			if (b - a > 1) {
				var part = Array.prototype.slice.call(children, a, b);

				part.sort(function (x, y) { return rank[nameOf[x]] - rank[nameOf[y]]; });
				children.set(part, a);
			}
		}
	})();

	if (timed) {
		var t = 0;

		sTime = new Float64Array(nSamples);
		for (var i = 0; i < nSamples; i++) {
			t += D.dt[i];
			sTime[i] = t;
		}
		sNode = Int32Array.from(D.node);
		sWeight = D.w ? Float64Array.from(D.w) : null;
	}
	if (D.diff) {
		baseTotal = Float64Array.from(D.base);
		for (i = N - 1; i > 0; i--)
			baseTotal[parent[i]] += baseTotal[i];
	}

	// Weights of the selected time range (all samples without one).
	function aggregate() {
		var r = state.range;

		if (timed) {
			self.fill(0);
			for (var i = 0; i < nSamples; i++) {
				if (r && (sTime[i] < r[0] || sTime[i] >= r[1]))
					continue;
				self[sNode[i]] += sWeight ? sWeight[i] : D.wc;
			}
		} else {
			self.set(D.self);
		}
		total.set(self);
		for (i = N - 1; i > 0; i--)
			total[parent[i]] += total[i];
		maxDelta = 0;
		if (baseTotal) {
			for (i = 0; i < N; i++)
				maxDelta = Math.max(maxDelta, Math.abs(total[i] - baseTotal[i]));
		}
		if (!total[state.focus])
			state.focus = 0;
	}

	// --- formatting ---------------------------------------------------------
	function fmtCount(v) {
		return Math.round(v).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}

	function pct(v, of) {
		return of > 0 ? (100 * v / of).toFixed(2) + "%" : "0%";
	}

	function describe(n) {
		var s = names[nameOf[n]] + " (" + fmtCount(total[n]) + " " + D.countname + ", " +
			pct(total[n], total[0]);

		if (baseTotal) {
			var d = total[n] - baseTotal[n];

			s += "; " + (d < 0 ? "-" : "+") + fmtCount(Math.abs(d)) + " " +
				(d < 0 ? "-" : "+") + pct(Math.abs(d), baseTotal[0]).replace(/^-/, "");
		}
		return s + ")";
	}

	function diffColor(n) {
		var ratio = maxDelta ? (total[n] - baseTotal[n]) / maxDelta : 0;
		var a = Math.min(1, Math.abs(ratio)), x = Math.round(235 - 200 * a);
		var red = D.negate ? ratio < 0 : ratio > 0;

		if (ratio === 0)
			return "rgb(240,240,240)";
		return red ? "rgb(255," + x + "," + x + ")" : "rgb(" + x + "," + x + ",255)";
	}

	// the search is run once per name, not per frame
	var nameHit = null;

	function matches(n) {
		return nameHit !== null && nameHit[nameOf[n]] === 1;
	}

	// --- the flame graph ----------------------------------------------------
	function minPixels(scale) {
		if (D.minwidthPercent)
			return total[0] * D.minwidth / 100 * scale;
		return Math.max(D.minwidth, 0.1);
	}

	// Frames to draw: the focus' ancestors at full width, then its subtree.
	function layout(width) {
		var scale = (width - 2 * PAD) / total[state.focus], min = minPixels(scale);
		var out = [], stack = [state.focus, 0];

		for (var a = state.focus; a !== 0;) {
			a = parent[a];
			out.push([a, PAD, width - 2 * PAD, true]);
		}
		while (stack.length) {
			var x = stack.pop(), node = stack.pop(), w = total[node] * scale;

			if (w < min || !total[node])
				continue;
			out.push([node, PAD + x * scale, w, false]);
			// pushed right to left so that they are drawn left to right
			var end = x + total[node] - self[node];

			for (var c = childStart[node + 1] - 1; c >= childStart[node]; c--) {
				end -= total[children[c]];
				stack.push(children[c], end);
			}
		}
		return out;
	}

	function rowY(d, height) {
		return D.inverted ? PAD + d * ROW : height - PAD - (d + 1) * ROW;
	}

	function render() {
		var started = performance.now();
		var canvas = el.flame, width = el.flameWrap.clientWidth || 1200;
		var frames = layout(width), deepest = 0, dpr = window.devicePixelRatio || 1;
		var height, ctx;

		frames.forEach(function (f) {
			deepest = Math.max(deepest, depth[f[0]]);
		});
		height = (deepest + 1) * ROW + 2 * PAD;
		canvas.width = Math.round(width * dpr);
		canvas.height = Math.round(height * dpr);
		canvas.style.height = height + "px";
		ctx = canvas.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.fillStyle = D.diff ? "#f8f8f8" : "#f4f4e8";
		ctx.fillRect(0, 0, width, height);
		ctx.font = FONT;
		ctx.textBaseline = "middle";
		rows = [];
		frames.forEach(function (f) {
			var n = f[0], x = f[1], w = f[2], d = depth[n], y = rowY(d, height);
			var fit = Math.floor((w - 6) / GLYPH), label = names[nameOf[n]];

			(rows[d] = rows[d] || []).push([x, w, n]);
			ctx.globalAlpha = f[3] ? 0.55 : 1;
			ctx.fillStyle = matches(n) ? "rgb(230,0,230)" :
				baseTotal ? diffColor(n) : colors[nameOf[n]];
			ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
			if (fit >= 3) {
				if (label.length > fit)
					label = label.substring(0, fit - 2) + "..";
				ctx.fillStyle = "#000";
				ctx.fillText(label, x + 3, y + ROW / 2);
			}
		});
		ctx.globalAlpha = 1;
		state.drawn = frames.length;
		state.height = height;
		el.unzoom.disabled = state.focus === 0;
		updateMatched();
		state.renderMs = performance.now() - started;
		drawn();
	}

	function frameAt(px, py) {
		var d = D.inverted ? Math.floor((py - PAD) / ROW) :
			Math.floor((state.height - PAD - py) / ROW);
		var row = rows[d], lo = 0, hi, r;

		if (!row)
			return -1;
		hi = row.length - 1;
		while (lo <= hi) {
			var mid = (lo + hi) >> 1;

			r = row[mid];
			if (px < r[0])
				hi = mid - 1;
			else if (px >= r[0] + r[1])
				lo = mid + 1;
			else
				return r[2];
		}
		return -1;
	}

	// Share of the focus covered by matching frames, nested ones once.
	function updateMatched() {
		var covered = 0, stack = [state.focus], n;

		state.matched = null;
		if (state.re === null) {
			el.matched.textContent = "";
			return;
		}
		for (n = state.focus; ; n = parent[n]) {
			if (matches(n)) {
				covered = total[state.focus];
				stack = [];
				break;
			}
			if (n === 0)
				break;
		}
		while (stack.length) {
			n = stack.pop();
			for (var c = childStart[n]; c < childStart[n + 1]; c++) {
				var k = children[c];

				if (!total[k])
					continue;
				if (matches(k))
					covered += total[k];
				else
					stack.push(k);
			}
		}
		state.matched = total[state.focus] ? 100 * covered / total[state.focus] : 0;
		el.matched.textContent = "Matched: " + state.matched.toFixed(1) + "%";
	}

	function setSearch(term) {
		state.term = term || "";
		state.re = null;
		el.search.value = state.term;
		el.search.style.background = "";
		nameHit = null;
		if (state.term) {
			try {
				state.re = new RegExp(state.term, el.ignorecase.checked ? "i" : "");
			} catch (e) {
				el.search.style.background = "#fcc";
			}
		}
		if (state.re !== null) {
			nameHit = new Uint8Array(names.length);
			for (var i = 0; i < names.length; i++)
				nameHit[i] = state.re.test(names[i]) ? 1 : 0;
		}
		render();
	}

	function zoom(n) {
		state.focus = n;
		render();
	}

	// --- top functions ------------------------------------------------------
	var topSort = "self";

	function renderTop() {
		var selfBy = new Float64Array(names.length), totalBy = new Float64Array(names.length);
		var stamp = new Int32Array(names.length).fill(-1), list = [];

		for (var n = 1; n < N; n++) {
			if (!self[n])
				continue;
			selfBy[nameOf[n]] += self[n];
			// a stack counts once per function, however often it recurses
			for (var a = n; a !== 0; a = parent[a]) {
				if (stamp[nameOf[a]] !== n) {
					stamp[nameOf[a]] = n;
					totalBy[nameOf[a]] += self[n];
				}
			}
		}
		for (var i = 1; i < names.length; i++)
			if (totalBy[i])
				list.push(i);
		list.sort(function (a, b) {
			var x = topSort === "self" ? selfBy : totalBy, y = topSort === "self" ? totalBy : selfBy;

			return (x[b] - x[a]) || (y[b] - y[a]) || (names[a] < names[b] ? -1 : 1);
		});
		state.top = list.slice(0, 100).map(function (k) {
			return [names[k], selfBy[k], totalBy[k]];
		});
		var rowsHtml = state.top.map(function (t) {
			var tr = document.createElement("tr"), td;

			[t[1], t[2]].forEach(function (v) {
				td = document.createElement("td");
				td.textContent = fmtCount(v) + " (" + pct(v, total[0]) + ")";
				tr.appendChild(td);
			});
			td = document.createElement("td");
			td.className = "name";
			td.textContent = t[0];
			td.title = "search for this function";
			tr.appendChild(td);
			return tr;
		});
		el.topBody.replaceChildren.apply(el.topBody, rowsHtml);
		el.thSelf.classList.toggle("sorted", topSort === "self");
		el.thTotal.classList.toggle("sorted", topSort === "total");
	}

	// --- the heat map -------------------------------------------------------
	var heat = null;

	function buildHeat() {
		var cols = Math.floor(sTime[nSamples - 1] / 1e6) + 1;

		heat = { cols: cols, cells: new Float64Array(cols * ROWS), max: 0, anchor: -1,
			 cur: -1, sel: null };
		for (var i = 0; i < nSamples; i++) {
			var k = Math.floor(sTime[i] / CELL_US);

			heat.cells[k] += sWeight ? sWeight[i] : D.wc;
		}
		for (i = 0; i < heat.cells.length; i++)
			heat.max = Math.max(heat.max, heat.cells[i]);
		heat.cw = Math.max(4, Math.min(18, Math.floor((el.flameWrap.clientWidth - 70) / cols)));
		heat.ch = 6;
		heat.left = 56;
		heat.top = 4;
	}

	function heatColor(v) {
		var a;

		if (!v)
			return "#ffffff";
		a = Math.sqrt(v / heat.max);
		return "rgb(" + Math.round(255 - 75 * a) + "," + Math.round(235 - 235 * a) + "," +
			Math.round(190 - 190 * a) + ")";
	}

	function drawHeat() {
		var c = el.heat, dpr = window.devicePixelRatio || 1;
		var w = heat.left + heat.cols * heat.cw + 10, h = heat.top + ROWS * heat.ch + 22;
		var ctx, sel = heat.sel, step = Math.max(1, Math.ceil(40 / heat.cw));

		if (heat.anchor >= 0 && heat.cur >= 0)
			sel = [Math.min(heat.anchor, heat.cur), Math.max(heat.anchor, heat.cur)];
		c.width = Math.round(w * dpr);
		c.height = Math.round(h * dpr);
		c.style.width = w + "px";
		c.style.height = h + "px";
		ctx = c.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.fillStyle = "#fafaf6";
		ctx.fillRect(0, 0, w, h);
		for (var k = 0; k < heat.cells.length; k++) {
			var x = heat.left + Math.floor(k / ROWS) * heat.cw, y = heat.top + (k % ROWS) * heat.ch;

			ctx.fillStyle = heatColor(heat.cells[k]);
			ctx.fillRect(x, y, heat.cw - 1, heat.ch - 1);
			if (sel && k >= sel[0] && k <= sel[1]) {
				ctx.fillStyle = "rgba(30,90,255,0.45)";
				ctx.fillRect(x, y, heat.cw - 1, heat.ch - 1);
			}
		}
		ctx.fillStyle = "#444";
		ctx.font = "10px sans-serif";
		ctx.textBaseline = "middle";
		for (var r = 0; r < ROWS; r += 10)
			ctx.fillText(r * 20 + " ms", 4, heat.top + r * heat.ch + heat.ch / 2);
		ctx.textBaseline = "top";
		for (var col = 0; col < heat.cols; col += step)
			ctx.fillText(col + " s", heat.left + col * heat.cw, heat.top + ROWS * heat.ch + 6);
		drawn();
	}

	function cellAt(e) {
		var r = el.heat.getBoundingClientRect();
		var col = Math.floor((e.clientX - r.left - heat.left) / heat.cw);
		var row = Math.floor((e.clientY - r.top - heat.top) / heat.ch);

		if (col < 0 || col >= heat.cols || row < 0 || row >= ROWS)
			return -1;
		return col * ROWS + row;
	}

	function cellName(k) {
		return Math.floor(k / ROWS) + " s + " + (k % ROWS) * 20 + " ms";
	}

	// Cells a..b (column-major, so time order) become the time range.
	function selectCells(a, b) {
		var lo = Math.min(a, b), hi = Math.max(a, b), n = 0;

		heat.sel = [lo, hi];
		heat.anchor = heat.cur = -1;
		state.range = [lo * CELL_US, (hi + 1) * CELL_US];
		for (var i = 0; i < nSamples; i++)
			if (sTime[i] >= state.range[0] && sTime[i] < state.range[1])
				n++;
		el.status.textContent = "Time range " + cellName(lo) + " to " + cellName(hi + 1) +
			": " + fmtCount(n) + " samples";
		el.clear.disabled = false;
		refresh();
	}

	function clearSelection() {
		heat.sel = null;
		state.range = null;
		el.status.textContent = "All " + fmtCount(nSamples) + " samples";
		el.clear.disabled = true;
		refresh();
	}

	function refresh() {
		var started = performance.now();

		aggregate();
		render();
		renderTop();
		if (heat)
			drawHeat();
		state.refreshMs = performance.now() - started;
	}

	// --- the page -----------------------------------------------------------
	function make(tag, attrs, parentEl, text) {
		var e = document.createElement(tag);

		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
		if (text !== undefined)
			e.textContent = text;
		if (parentEl)
			parentEl.appendChild(e);
		return e;
	}

	function showTip(e, text) {
		el.tip.textContent = text;
		el.tip.style.display = "block";
		el.tip.style.left = Math.min(e.clientX + 12, window.innerWidth - 320) + "px";
		el.tip.style.top = (e.clientY + 14) + "px";
	}

	function hideTip() {
		el.tip.style.display = "none";
	}

	function buildPage() {
		var body = document.body, header = make("header", {}, body), bar, sec, table, tr;

		make("h1", {}, header, D.title);
		if (D.subtitle)
			make("div", { id: "subtitle" }, header, D.subtitle);
		bar = make("div", { id: "toolbar" }, body);
		el.search = make("input", { type: "text", id: "search",
					    placeholder: "Search (regular expression)" }, bar);
		var lab = make("label", {}, bar);
		el.ignorecase = make("input", { type: "checkbox", id: "ignorecase" }, lab);
		lab.appendChild(document.createTextNode(" ignore case"));
		el.unzoom = make("button", { id: "unzoom" }, bar, "Reset Zoom");
		el.clear = make("button", { id: "clear" }, bar, "Clear Selection");
		el.status = make("span", { id: "status" }, bar);
		el.matched = make("span", { id: "matched" }, bar);
		if (timed) {
			sec = make("section", { id: "heat-section" }, body);
			make("h2", {}, sec, "Subsecond offset heat map (columns: seconds, rows: 20 ms; " +
			     "drag over cells to select a time range)");
			el.heatWrap = make("div", { id: "heat-wrap" }, sec);
			el.heat = make("canvas", { id: "heat" }, el.heatWrap);
		} else {
			el.clear.classList.add("hidden");
		}
		sec = make("section", {}, body);
		el.flameWrap = make("div", { id: "flame-wrap" }, sec);
		el.flame = make("canvas", { id: "flame" }, el.flameWrap);
		el.details = make("div", { id: "details" }, body, "\u00a0");
		sec = make("section", {}, body);
		make("h2", {}, sec, "Top functions");
		table = make("table", { id: "top" }, sec);
		tr = make("tr", {}, make("thead", {}, table));
		el.thSelf = make("th", {}, tr, "Self");
		el.thTotal = make("th", {}, tr, "Total");
		make("th", { style: "text-align:left" }, tr, D.nametype.replace(/:$/, ""));
		el.topBody = make("tbody", {}, table);
		el.tip = make("div", { id: "tip" }, body);
	}

	function wire() {
		var timer = null;

		el.search.addEventListener("input", function () {
			clearTimeout(timer);
			timer = setTimeout(function () { setSearch(el.search.value); }, 150);
		});
		el.ignorecase.addEventListener("change", function () { setSearch(el.search.value); });
		el.unzoom.addEventListener("click", function () { zoom(0); });
		el.clear.addEventListener("click", clearSelection);
		el.flame.addEventListener("mousemove", function (e) {
			var r = el.flame.getBoundingClientRect(), n = frameAt(e.clientX - r.left, e.clientY - r.top);

			if (n < 0) {
				hideTip();
				el.details.textContent = "\u00a0";
				return;
			}
			el.details.textContent = D.nametype + " " + describe(n);
			showTip(e, describe(n));
		});
		el.flame.addEventListener("mouseleave", hideTip);
		el.flame.addEventListener("click", function (e) {
			var r = el.flame.getBoundingClientRect(), n = frameAt(e.clientX - r.left, e.clientY - r.top);

			if (n >= 0)
				zoom(n);
		});
		el.thSelf.addEventListener("click", function () { topSort = "self"; renderTop(); });
		el.thTotal.addEventListener("click", function () { topSort = "total"; renderTop(); });
		el.topBody.addEventListener("click", function (e) {
			if (e.target.classList.contains("name"))
				setSearch("^" + e.target.textContent.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$");
		});
		window.addEventListener("keydown", function (e) {
			if ((e.ctrlKey || e.metaKey) && e.key === "f") {
				e.preventDefault();
				el.search.focus();
			} else if (e.key === "Escape") {
				setSearch("");
				zoom(0);
			}
		});
		window.addEventListener("resize", function () {
			render();
		});
		if (!heat)
			return;
		el.heat.addEventListener("mousedown", function (e) {
			heat.anchor = heat.cur = cellAt(e);
			e.preventDefault();
		});
		el.heat.addEventListener("mousemove", function (e) {
			var k = cellAt(e);

			if (k < 0) {
				hideTip();
				return;
			}
			showTip(e, cellName(k) + ": " + fmtCount(heat.cells[k]) + " " + D.countname);
			if (heat.anchor >= 0 && k !== heat.cur) {
				heat.cur = k;
				drawHeat();
			}
		});
		el.heat.addEventListener("mouseleave", hideTip);
		window.addEventListener("mouseup", function (e) {
			var k;

			if (heat.anchor < 0)
				return;
			k = cellAt(e);
			selectCells(heat.anchor, k >= 0 ? k : heat.cur);
		});
	}

	// --- for scripts and tests ----------------------------------------------
	function firstNamed(name) {
		var best = -1;

		for (var n = 1; n < N; n++)
			if (names[nameOf[n]] === name && total[n] && (best < 0 || total[n] > total[best]))
				best = n;
		return best;
	}

	function ink(canvas) {
		var ctx = canvas.getContext("2d"), d, bg, count = 0;

		d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
		bg = [d[0], d[1], d[2]];
		for (var i = 0; i < d.length; i += 4)
			if (d[i] !== bg[0] || d[i + 1] !== bg[1] || d[i + 2] !== bg[2])
				count++;
		return count;
	}

	var api = {
		state: function () {
			return {
				frames: state.drawn, total: total[state.focus], rootTotal: total[0],
				focus: names[nameOf[state.focus]], matched: state.matched,
				range: state.range, timed: timed, samples: nSamples, draws: draws,
				renderMs: state.renderMs, refreshMs: state.refreshMs,
				heatColumns: heat ? heat.cols : 0,
				heatCells: heat ? Array.prototype.filter.call(heat.cells, Boolean).length : 0,
				top: (state.top || []).slice(0, 10)
			};
		},
		totalOf: function (name) {
			var sum = 0;

			for (var n = 1; n < N; n++)
				if (names[nameOf[n]] === name)
					sum += total[n];
			return sum;
		},
		search: function (term) {
			setSearch(term);
			return state.matched;
		},
		zoom: function (name) {
			var n = firstNamed(name);

			if (n >= 0)
				zoom(n);
			return n >= 0;
		},
		reset: function () {
			setSearch("");
			zoom(0);
		},
		selectCells: function (a, b) {
			if (!heat)
				return false;
			selectCells(a, b);
			return true;
		},
		busiestCells: function () {
			// the index of the first and last cell holding samples
			var first = -1, last = -1;

			for (var k = 0; heat && k < heat.cells.length; k++) {
				if (heat.cells[k]) {
					if (first < 0)
						first = k;
					last = k;
				}
			}
			return [first, last];
		},
		clearSelection: function () {
			if (heat)
				clearSelection();
		},
		ink: function () { return ink(el.flame); },
		heatInk: function () { return heat ? ink(el.heat) : 0; },
		errors: function () { return pclErrors.slice(); }
	};
	window.__pclTest = api;

	// "#pcltest=[["search","x"],["state"]]" runs the calls after loading and
	// writes their results as JSON into the element #pcl-test-out.
	function runHashTest() {
		var m = /^#pcltest=(.*)$/.exec(location.hash), out = [];

		if (!m)
			return;
		try {
			JSON.parse(decodeURIComponent(m[1])).forEach(function (call) {
				out.push([call[0], api[call[0]].apply(null, call.slice(1))]);
			});
		} catch (e) {
			pclErrors.push("test hook: " + e);
		}
		make("pre", { id: "pcl-test-out" }, document.body,
		     JSON.stringify({ results: out, errors: pclErrors }));
	}

	buildPage();
	if (timed && nSamples)
		buildHeat();
	else
		timed = false;
	wire();
	aggregate();
	if (heat)
		clearSelection();
	else
		refresh();
	if (D.search)
		setSearch(D.search);
	runHashTest();
})();
