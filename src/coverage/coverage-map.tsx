import { queryOptions, useQuery } from "@tanstack/react-query";
import { geoPath } from "d3-geo";
import { useState, type MouseEvent } from "react";
import { useNavigate } from "react-router";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { ageWords, type StateAge } from "./data-age.ts";

type Atlas = Topology<{ states: GeometryCollection<{ name: string }>; nation: GeometryCollection }>;

// us-atlas ships the states already projected (Albers USA, Alaska and Hawaii moved in) onto 975 × 610: no projection.
const WIDTH = 975;
const HEIGHT = 610;

/** Each state's outline as an SVG path, and its centre; DC last, so its marker lies over Maryland and Virginia. */
async function loadShapes() {
  // The atlas arrives after the page, as a state's decoding table does: a first visit to /data stays within budget.
  const atlas = (await import("us-atlas/states-albers-10m.json")).default as unknown as Atlas;
  const path = geoPath();
  return feature(atlas, atlas.objects.states)
    .features.map((f) => ({ name: f.properties.name, d: path(f) ?? "", centroid: path.centroid(f) }))
    .sort((a, b) => Number(a.name === "District of Columbia") - Number(b.name === "District of Columbia"));
}

const shapesQuery = queryOptions({
  queryKey: ["map", "states"] as const,
  queryFn: loadShapes,
  staleTime: Infinity,
  gcTime: Infinity,
});

interface Props {
  states: readonly StateAge[];
  /** Where a click on a covered state leads: its search. */
  searchUrl: (state: string) => string;
}

/**
 * The United States, each state shaded by the age of its newest data. A covered state is a link to its search; every
 * state is named with its age (the table below says the same), so the picture is never the only place a fact is.
 */
export function CoverageMap({ states, searchUrl }: Props) {
  const navigate = useNavigate();
  const [lit, setLit] = useState<{ name: string; by: "pointer" | "focus" } | null>(null);
  const byName = new Map(states.map((s) => [s.name, s]));
  const open = (event: MouseEvent, url: string) => {
    // A new tab or window opens the link itself.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(url);
  };
  const shapes = useQuery(shapesQuery);
  if (shapes.isError) {
    return <p className="notice notice--info">The map could not be loaded. The table below gives the same facts.</p>;
  }
  if (!shapes.data) {
    // The map's room, kept while the atlas arrives: the legend and table do not move when it comes.
    return (
      <div className="coverage-map coverage-map--loading" role="status">
        Loading the map…
      </div>
    );
  }
  const litShape = lit ? shapes.data.find((s) => s.name === lit.name) : undefined;

  return (
    <svg className="coverage-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-labelledby="coverage-map-name">
      <title id="coverage-map-name">Map of the states by the age of their newest data</title>
      <defs>
        <pattern id="coverage-map-hatch" width="8" height="8" patternUnits="userSpaceOnUse">
          <rect className="coverage-map__hatch-ground" width="8" height="8" />
          <path className="coverage-map__hatch-line" d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" />
        </pattern>
      </defs>
      {shapes.data.map((shape) => {
        const state = byName.get(shape.name);
        if (!state) return null;
        const words = ageWords(state);
        const marker =
          state.code === "dc" ? (
            <circle className="coverage-map__marker" cx={shape.centroid[0]} cy={shape.centroid[1]} r="7" />
          ) : null;
        if (!state.coverage) {
          return (
            <g key={state.code} className="coverage-map__state" data-age={state.band} role="img" aria-label={words}>
              <title>{words}</title>
              <path d={shape.d} />
              {marker}
            </g>
          );
        }
        const url = searchUrl(state.code);
        return (
          <a
            key={state.code}
            href={url}
            className="coverage-map__state coverage-map__state--covered"
            data-age={state.band}
            aria-label={`${words}. Search ${state.name}`}
            onClick={(event) => open(event, url)}
            onMouseEnter={() => setLit({ name: shape.name, by: "pointer" })}
            onMouseLeave={() => setLit((now) => (now?.by === "pointer" ? null : now))}
            onFocus={() => setLit({ name: shape.name, by: "focus" })}
            onBlur={() => setLit(null)}
          >
            <title>{words}</title>
            <path d={shape.d} />
            {marker}
          </a>
        );
      })}
      {/* The state under the pointer or the focus, outlined over its neighbours. */}
      {litShape ? <path className="coverage-map__lit" data-by={lit!.by} d={litShape.d} aria-hidden="true" /> : null}
    </svg>
  );
}
