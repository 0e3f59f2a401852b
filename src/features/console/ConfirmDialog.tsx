/** The console's question before a change that moves money or cannot be undone: the question, the action's button, and Cancel. */
import type { ReactNode, RefObject } from 'react';

interface Props {
  dialog: RefObject<HTMLDialogElement | null>;
  /** The question's element id, which names the dialog. */
  id: string;
  question: ReactNode;
  confirm: string;
  cancel: string;
  onConfirm: () => void;
  /** Marks the confirming button for the browser tests (data-confirm-…). */
  marker: Record<`data-${string}`, string | boolean>;
}

export function ConfirmDialog({ dialog, id, question, confirm, cancel, onConfirm, marker }: Props) {
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          {...marker}
          onClick={() => {
            dialog.current?.close();
            onConfirm();
          }}
        >
          {confirm}
        </button>
        <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
          {cancel}
        </button>
      </div>
    </dialog>
  );
}
