/**
 * Long paths, targets and command lines, shown whole: the text may wrap after a separator
 * (/ \ = , and spaces), so a line breaks between path parts instead of inside a name.
 */
import { Fragment } from 'react';

export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/\\=,])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
