/** The header of a hand-made table's row-actions column: read out, not shown. */
export function ActionsHeader({ label = 'Actions' }: { label?: string }) {
  return (
    <th scope="col" className="actions">
      <span className="sr-only">{label}</span>
    </th>
  );
}
