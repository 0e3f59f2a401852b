import './AmountChoice.css';
/** Preset amounts as chips, and "another amount" with a field and its bounds: the recharge and donation forms' one amount picker. */
interface Props {
  presets: readonly number[];
  /** The chosen preset; null while "another amount" is chosen. */
  preset: number | null;
  onPreset: (preset: number | null) => void;
  /** The other amount as typed. */
  custom: string;
  onCustom: (typed: string) => void;
  money: (minor: number) => string;
  labels: { legend: string; other: string; hint: string };
}

export function AmountChoice({ presets, preset, onPreset, custom, onCustom, money, labels }: Props) {
  return (
    <fieldset className="choice-group">
      <legend>{labels.legend}</legend>
      <div className="chips">
        {presets.map((value) => (
          <label key={value} className="chip">
            <input type="radio" name="amount" checked={preset === value} onChange={() => onPreset(value)} />
            <span>{money(value)}</span>
          </label>
        ))}
        <label className="chip">
          <input type="radio" name="amount" checked={preset === null} onChange={() => onPreset(null)} />
          <span>{labels.other}</span>
        </label>
      </div>
      {preset === null && (
        <label>
          {labels.other}
          <input name="custom" inputMode="decimal" autoComplete="off" value={custom} onChange={(event) => onCustom(event.currentTarget.value)} />
          <span className="hint">{labels.hint}</span>
        </label>
      )}
    </fieldset>
  );
}
