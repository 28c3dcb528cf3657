import { queryOptions, useQuery } from "@tanstack/react-query";
import { geoPath } from "d3-geo";
import { useState, type MouseEvent } from "react";
import { useNavigate } from "react-router";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { stateWords, type StateAge } from "./data-age.ts";

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

/** The dots (part of the state) and stripes (no roster) laid in white over a state's shade, `size` units apart. */
function KindPatterns({ id, size }: { id: string; size: number }) {
  return (
    <>
      <pattern id={`coverage-map-part${id}`} width={size} height={size} patternUnits="userSpaceOnUse">
        <circle className="coverage-map__pattern-mark" cx={size / 2} cy={size / 2} r={size * 0.3} />
      </pattern>
      <pattern id={`coverage-map-not-roster${id}`} width={size} height={size} patternUnits="userSpaceOnUse">
        <rect className="coverage-map__pattern-mark" width={size} height={size * 0.43} />
      </pattern>
    </>
  );
}

/**
 * The United States, each state shaded by the age of its newest data and patterned by what its data is. A covered
 * state is a link to its search; every state is named with both (the table below says the same), on hover or focus
 * in the line under the map, so the picture is never the only place a fact is.
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
  const pointAt = (name: string) => ({
    onMouseEnter: () => setLit({ name, by: "pointer" }),
    onMouseLeave: () => setLit((now) => (now?.by === "pointer" ? null : now)),
  });
  const shapes = useQuery(shapesQuery);
  const litState = lit ? byName.get(lit.name) : undefined;
  // Said by each state's own name to a screen reader: shown, not read twice. Its room is kept while nothing is lit.
  const caption = (
    <p className={`coverage-map__caption${litState ? "" : " coverage-map__caption--hint"}`} aria-hidden="true">
      {litState ? stateWords(litState) : "Point at a state for its name, what its data is and how old."}
    </p>
  );
  if (shapes.isError) {
    return <p className="notice notice--info">The map could not be loaded. The table below gives the same facts.</p>;
  }
  if (!shapes.data) {
    // The map's room, kept while the atlas arrives: the legend and table do not move when it comes.
    return (
      <>
        <div className="coverage-map coverage-map--loading" role="status">
          Loading the map…
        </div>
        {caption}
      </>
    );
  }
  const litShape = lit ? shapes.data.find((s) => s.name === lit.name) : undefined;

  return (
    <>
      <svg className="coverage-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-labelledby="coverage-map-name">
        <title id="coverage-map-name">Map of the states by what their data is and how old</title>
        <defs>
          <pattern id="coverage-map-hatch" width="8" height="8" patternUnits="userSpaceOnUse">
            <rect className="coverage-map__hatch-ground" width="8" height="8" />
            <path className="coverage-map__hatch-line" d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" />
          </pattern>
          <KindPatterns id="" size={6} />
          {/* For a map drawn small (a phone's): finer dots blur into a paler shade. */}
          <KindPatterns id="-coarse" size={14} />
        </defs>
        {shapes.data.map((shape) => {
          const state = byName.get(shape.name);
          if (!state) return null;
          const words = stateWords(state);
          const marker =
            state.code === "dc" ? (
              <circle className="coverage-map__marker" cx={shape.centroid[0]} cy={shape.centroid[1]} r="7" />
            ) : null;
          // Laid over the shade by the state's data-kind: dots for part of the state, stripes for no roster.
          const patterned = state.kind === "part_of_state" || state.kind === "not_a_roster";
          const drawn = (
            <>
              <title>{words}</title>
              <path d={shape.d} />
              {patterned ? <path className="coverage-map__kind" d={shape.d} /> : null}
              {marker}
            </>
          );
          if (!state.coverage) {
            return (
              <g
                key={state.code}
                className="coverage-map__state"
                data-age={state.band}
                role="img"
                aria-label={words}
                {...pointAt(shape.name)}
              >
                {drawn}
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
              data-kind={state.kind ?? undefined}
              aria-label={`${words}. Search ${state.name}`}
              onClick={(event) => open(event, url)}
              {...pointAt(shape.name)}
              onFocus={() => setLit({ name: shape.name, by: "focus" })}
              onBlur={() => setLit(null)}
            >
              {drawn}
            </a>
          );
        })}
        {/* The state under the pointer or the focus, outlined over its neighbours. */}
        {litShape ? <path className="coverage-map__lit" data-by={lit!.by} d={litShape.d} aria-hidden="true" /> : null}
      </svg>
      {caption}
    </>
  );
}
