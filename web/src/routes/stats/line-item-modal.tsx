import type { CreativeStatus, LineItemLink } from '../../../../schema/creative-status-api';
import { Button } from '../../components/button';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { Modal } from '../../components/modal';

const STATUS_BADGE: Record<string, string> = {
  active: 'badge badge-success',
  paused: 'badge badge-warning',
  deleted: 'badge badge-danger',
};

const label = (status: string) => (status ? status[0].toUpperCase() + status.slice(1) : 'Unknown');

/**
 * The line items a creative can run in (spec 3 §4: opened when it has two or more). Each switch
 * links or unlinks the creative and that line item at once; a deleted line item shows no switch.
 */
export function LineItemModal({
  creative,
  onClose,
  onToggle,
  busy,
}: {
  creative: CreativeStatus | null;
  onClose: () => void;
  onToggle: (item: LineItemLink, next: boolean) => void;
  busy: ReadonlySet<string>;
}) {
  return (
    <Modal
      open={creative !== null}
      title={creative ? `Line items of creative ${creative.target}` : 'Line items'}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Close
        </Button>
      }
    >
      <p className="modal-lead">
        The creative runs in the line items switched on. A paused line item does not serve until it is set
        active on the manage screen.
      </p>
      <table className="li-modal-table" data-testid="line-item-modal">
        <thead>
          <tr>
            <th scope="col">Line item</th>
            <th scope="col">Line item status</th>
            <th scope="col">Creative</th>
          </tr>
        </thead>
        <tbody>
          {(creative?.lineitem_statuses ?? []).map((item) => (
            <tr key={item.refId} data-line-item={item.refId}>
              <td>
                <span className="cell-strong">{item.name}</span>
                <span className="cell-muted li-modal-ref">{item.refId}</span>
              </td>
              <td>
                <span className={STATUS_BADGE[item.status] ?? 'badge badge-neutral-soft'}>
                  {label(item.status)}
                </span>
              </td>
              <td>
                {item.status === 'deleted' ? (
                  <span className="cell-muted">{item.linked ? 'Linked, deleted' : 'Deleted'}</span>
                ) : (
                  <StatusSwitch
                    checked={item.linked}
                    label={`Creative ${creative?.target} in line item ${item.name}`}
                    busy={busy.has(item.refId)}
                    onChange={(next) => onToggle(item, next)}
                    testId={`line-item-switch-${item.refId}`}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
