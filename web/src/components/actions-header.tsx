/** The header cell over a hand-made table's row buttons: named for screen readers only. */
export function ActionsHeader() {
  return (
    <th scope="col" className="actions">
      <span className="sr-only">Actions</span>
    </th>
  );
}
