// pcl heatmap's HTML page: clicking a cell of the map lists the events
// behind it (the page's JSON holds each event's cell).
(function () {
	"use strict";
	var data = JSON.parse(document.getElementById("pcl-data").textContent);
	var listing = document.getElementById("listing");
	var selected = null;

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

	function show(rect) {
		var col = +rect.getAttribute("data-col"), row = +rect.getAttribute("data-row");
		var index = col * data.rows + row, table = document.createElement("table");
		var head = document.createElement("tr"), n = 0;
		var t0 = col * data.stepsec, lat0 = data.minlat + row * data.rowsize;
		var withStacks = data.stacks.length > 0;
		var caption = document.createElement("p");

		if (selected)
			selected.classList.remove("selected");
		selected = rect;
		rect.classList.add("selected");
		["time (s)", "latency (" + data.unit + ")", "comm", "tid"].concat(
			withStacks ? ["stack"] : []).forEach(function (h) {
			head.appendChild(cell("th", h));
		});
		table.appendChild(head);
		for (var i = 0; i < data.cell.length; i++) {
			if (data.cell[i] !== index)
				continue;
			var tr = document.createElement("tr");
			tr.appendChild(cell("td", data.t[i].toFixed(6)));
			tr.appendChild(cell("td", String(data.lat[i])));
			tr.appendChild(cell("td", data.comm[i] < 0 ? "" : data.comms[data.comm[i]],
					    "comm"));
			tr.appendChild(cell("td", data.tid[i] < 0 ? "" : String(data.tid[i])));
			if (withStacks)
				tr.appendChild(cell("td", stackText(data.stack[i]), "stack"));
			table.appendChild(tr);
			n++;
		}
		caption.id = "listing-caption";
		caption.textContent = n + " event" + (n === 1 ? "" : "s") + " at " +
			+t0.toPrecision(6) + "-" + +(t0 + data.stepsec).toPrecision(6) + " s, " +
			+lat0.toPrecision(6) + "-" + +(lat0 + data.rowsize).toPrecision(6) + " " +
			data.unit;
		listing.textContent = "";
		listing.appendChild(caption);
		listing.appendChild(table);
	}

	document.getElementById("map").addEventListener("click", function (ev) {
		var rect = ev.target.closest("rect.cell");
		if (rect)
			show(rect);
	});
	document.documentElement.setAttribute("data-pcl-ready", "1");
})();
