/**
 * Text that takes on screen the room `widest` would (a hidden copy of it, see index.css): a count growing within it,
 * up to the list's length, moves nothing beside it and never wraps a line anew. Paper prints the text alone.
 */
export function WidestText({ text, widest }: { text: string; widest: string }) {
  return (
    <span className="verify__widest" data-widest={widest}>
      {text}
    </span>
  );
}
