// pcl heatmap's HTML page: clicking a cell of the map lists the events
// behind it (the page's JSON holds the first --cell-events of each cell);
// shift-click adds or removes cells.  With call chains, the selection's
// stacks are also drawn as a flame graph, from per-cell stack counts that
// cover every event.
(function () {
	"use strict";
	var data = JSON.parse(document.getElementById("pcl-data").textContent);
	var listing = document.getElementById("listing");
	var flame = document.getElementById("flame");
	var MAX_ROWS = 2000;		// rows listed; the caption counts them all
	var FLAME_WIDTH = 1000, FRAME_HEIGHT = 17;
	var SVGNS = "http://www.w3.org/2000/svg";
	var selected = [];		// the selected <rect class="cell"> elements

	function cell(tag, text, cls) {
		var td = document.createElement(tag);
		td.textContent = text;
		if (cls)
			td.className = cls;
		return td;
	}

	// The stack innermost frame first, as perf script prints one.
	function stackText(i) {
		return i < 0 ? "" : data.stacks[i].split(";").reverse().join("\n");
	}

	function cellIndex(rect) {
		return +rect.getAttribute("data-col") * data.rows + +rect.getAttribute("data-row");
	}

	function range(rect) {
		var t0 = +rect.getAttribute("data-col") * data.stepsec;
		var lat0 = data.minlat + +rect.getAttribute("data-row") * data.rowsize;

		return +t0.toPrecision(6) + "-" + +(t0 + data.stepsec).toPrecision(6) + " s, " +
			+lat0.toPrecision(6) + "-" + +(lat0 + data.rowsize).toPrecision(6) + " " +
			data.unit;
	}

	function listEvents(events, total) {
		var table = document.createElement("table"), head = document.createElement("tr");
		var withStacks = data.stacks.length > 0, caption = document.createElement("p");

		["time (s)", "latency (" + data.unit + ")", "comm", "tid"].concat(
			withStacks ? ["stack"] : []).forEach(function (h) {
			head.appendChild(cell("th", h, h === "comm" || h === "stack" ? h : ""));
		});
		table.appendChild(head);
		events.slice(0, MAX_ROWS).forEach(function (i) {
			var tr = document.createElement("tr");

			tr.appendChild(cell("td", data.t[i].toFixed(6)));
			tr.appendChild(cell("td", String(data.lat[i])));
			tr.appendChild(cell("td", data.comm[i] < 0 ? "" : data.comms[data.comm[i]],
					    "comm"));
			tr.appendChild(cell("td", data.tid[i] < 0 ? "" : String(data.tid[i])));
			if (withStacks)
				tr.appendChild(cell("td", stackText(data.stack[i]), "stack"));
			table.appendChild(tr);
		});
		caption.id = "listing-caption";
		var shown = Math.min(events.length, MAX_ROWS);

		caption.textContent = total + " event" + (total === 1 ? "" : "s") +
			(selected.length === 1 ? " at " + range(selected[0]) :
			 " in " + selected.length + " cells") +
			(shown < total ? " (" + shown + " listed)" : "");
		listing.textContent = "";
		listing.appendChild(caption);
		listing.appendChild(table);
	}

	// The wanted cells' stacks merged into a tree: {name, count, children: {name: node}}.
	function stackTree(wanted) {
		var root = { name: "all", count: 0, children: {} }, cs = data.cellstacks;

		for (var i = 0; i < cs.length; i += 3) {
			var node = root, n = cs[i + 2];

			if (!wanted[cs[i]])
				continue;
			root.count += n;
			if (cs[i + 1] < 0)
				continue;
			data.stacks[cs[i + 1]].split(";").forEach(function (name) {
				if (!node.children[name])
					node.children[name] = { name: name, count: 0, children: {} };
				node = node.children[name];
				node.count += n;
			});
		}
		return root;
	}

	function depth(node) {
		var d = 0;

		Object.keys(node.children).forEach(function (k) {
			d = Math.max(d, depth(node.children[k]));
		});
		return d + 1;
	}

	// A flame graph: the root at the bottom, children sorted by name.
	function drawFlame(wanted) {
		var root = stackTree(wanted), levels = depth(root);
		var svg = document.createElementNS(SVGNS, "svg");
		var height = levels * FRAME_HEIGHT;

		function draw(node, x, level) {
			var w = node.count / root.count * FLAME_WIDTH, g = document.createElementNS(SVGNS, "g");
			var rect = document.createElementNS(SVGNS, "rect");
			var title = document.createElementNS(SVGNS, "title");
			var text = document.createElementNS(SVGNS, "text");
			var chars = Math.floor((w - 6) / 7);

			g.setAttribute("class", "frame");
			g.setAttribute("data-name", node.name);
			g.setAttribute("data-count", node.count);
			rect.setAttribute("x", x);
			rect.setAttribute("y", height - (level + 1) * FRAME_HEIGHT);
			rect.setAttribute("width", Math.max(w - 0.5, 0.1));
			rect.setAttribute("height", FRAME_HEIGHT - 1);
			rect.setAttribute("fill", "hsl(" + (20 + (level * 37) % 30) + ",85%," +
					  (55 + (node.name.length * 7) % 15) + "%)");
			title.textContent = node.name + " (" + node.count + " event" +
				(node.count === 1 ? "" : "s") + ", " +
				(100 * node.count / root.count).toFixed(2) + "%)";
			g.appendChild(title);
			g.appendChild(rect);
			if (chars >= 3) {
				text.setAttribute("x", x + 3);
				text.setAttribute("y", height - level * FRAME_HEIGHT - 5);
				text.textContent = node.name.length > chars ?
					node.name.slice(0, chars - 2) + ".." : node.name;
				g.appendChild(text);
			}
			svg.appendChild(g);
			Object.keys(node.children).sort().forEach(function (k) {
				draw(node.children[k], x, level + 1);
				x += node.children[k].count / root.count * FLAME_WIDTH;
			});
		}

		svg.setAttribute("width", FLAME_WIDTH);
		svg.setAttribute("height", height);
		draw(root, 0, 0);
		flame.textContent = "";
		flame.appendChild(svg);
	}

	function show() {
		var wanted = {}, events = [], total = 0;

		selected.forEach(function (rect) {
			wanted[cellIndex(rect)] = true;
			total += +rect.getAttribute("data-count");
		});
		for (var i = 0; i < data.cell.length; i++)
			if (wanted[data.cell[i]])
				events.push(i);
		listEvents(events, total);
		if (data.stacks.length)
			drawFlame(wanted);
	}

	document.getElementById("map").addEventListener("click", function (ev) {
		var rect = ev.target.closest("rect.cell"), at;

		if (!rect)
			return;
		if (!ev.shiftKey) {
			selected.forEach(function (r) { r.classList.remove("selected"); });
			selected = [];
		}
		at = selected.indexOf(rect);
		if (at >= 0 && selected.length > 1) {
			selected.splice(at, 1);
			rect.classList.remove("selected");
		} else if (at < 0) {
			selected.push(rect);
			rect.classList.add("selected");
		}
		show();
	});
	document.documentElement.setAttribute("data-pcl-ready", "1");
})();
