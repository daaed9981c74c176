// Zoom and scroll for pcl timechart's HTML page: the chart sits in a
// scrolling box; the buttons, the +/-/0 keys and Ctrl+wheel zoom it, the
// point under the mouse staying put.  Hovering shows each box's tooltip.
(function () {
	"use strict";
	var box = document.getElementById("chart");
	var svg = box.querySelector("svg");
	var label = document.getElementById("zoom");
	var width = parseFloat(svg.getAttribute("width"));
	var height = parseFloat(svg.getAttribute("height"));
	var zoom = 1;

	svg.setAttribute("viewBox", "0 0 " + width + " " + height);

	// Zooms to z, keeping the chart point at (x, y) of the box's view put.
	function zoomTo(z, x, y) {
		z = Math.min(Math.max(z, 0.05), 4096);
		var cx = (box.scrollLeft + x) / zoom, cy = (box.scrollTop + y) / zoom;

		zoom = z;
		svg.setAttribute("width", width * zoom);
		svg.setAttribute("height", height * zoom);
		box.scrollLeft = cx * zoom - x;
		box.scrollTop = cy * zoom - y;
		label.textContent = Math.round(zoom * 100) + "%";
	}

	function center(factor) {
		zoomTo(zoom * factor, box.clientWidth / 2, box.clientHeight / 2);
	}

	document.getElementById("zoom-in").onclick = function () { center(2); };
	document.getElementById("zoom-out").onclick = function () { center(0.5); };
	document.getElementById("zoom-reset").onclick = function () { zoomTo(1, 0, 0); };
	document.getElementById("zoom-fit").onclick = function () {
		zoomTo(box.clientWidth / width, 0, 0);
	};
	box.addEventListener("wheel", function (e) {
		if (!e.ctrlKey)
			return;		// plain wheel scrolls
		e.preventDefault();
		var r = box.getBoundingClientRect();
		zoomTo(zoom * (e.deltaY < 0 ? 1.25 : 0.8), e.clientX - r.left, e.clientY - r.top);
	}, { passive: false });
	document.addEventListener("keydown", function (e) {
		if (e.key === "+" || e.key === "=")
			center(2);
		else if (e.key === "-")
			center(0.5);
		else if (e.key === "0")
			zoomTo(1, 0, 0);
	});
	// dragging scrolls too
	var drag = null;
	box.addEventListener("mousedown", function (e) {
		drag = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop };
		e.preventDefault();
	});
	window.addEventListener("mousemove", function (e) {
		if (!drag)
			return;
		box.scrollLeft = drag.left - (e.clientX - drag.x);
		box.scrollTop = drag.top - (e.clientY - drag.y);
	});
	window.addEventListener("mouseup", function () { drag = null; });
	label.textContent = "100%";
})();
