import { useEffect, useState } from 'react';
import { formatUsd, visibleText } from '@glassbox/core';
import type { ClientCostView, CostLineView, CostView, IpcError } from '@glassbox/contract';
import { exact, humanTokens } from '../format';
import { useApp } from '../store';
import { turnTitle, windowPriceSource } from '../cost-report-rows';

/** What the session cost at the agent's dated list prices: per model and per turn, cache writes and reads apart. */
export function CostPanel({ path }: { path: string }) {
  const api = useApp((s) => s.api);
  const [cost, setCost] = useState<CostView | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  useEffect(() => {
    let live = true;
    void api.invoke('session:cost', { path }).then((r) => {
      if (!live) return;
      if (r.ok) setCost(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [api, path]);
  if (error) return <div className="error-box" role="alert">{error.message}</div>;
  if (!cost) return <div className="loading">Pricing every response…</div>;
  const usd = (l: CostLineView) => (l.cost === null ? 'no price' : formatUsd(l.cost));
  return (
    <section className="cost-panel" aria-label="Cost" data-testid="cost-panel">
      <p className="cost-lead">
        <strong data-testid="cost-total">{usd(cost.total)}</strong> for {cost.total.responses} responses at list prices{' '}
        <span className="dim" data-testid="price-date">
          (price table of {cost.priceTable.asOf}, {windowPriceSource(cost.priceTable.source)})
        </span>
        {cost.subagents.responses > 0 ? <span className="dim"> · subagents {usd(cost.subagents)}</span> : null}
        {cost.unknownModels.length ? <span className="warn"> · no price for {cost.unknownModels.join(', ')}</span> : null}
      </p>
      {cost.client ? <ClientFigure client={cost.client} /> : null}
      <h3>By model</h3>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Cost by model">
        <table className="cost-table">
          <thead>
            <tr>
              <th scope="col">model</th>
              <UsageHead />
              <th scope="col" className="num">
                cost
              </th>
            </tr>
          </thead>
          <tbody>
            {cost.byModel.map((m) => (
              <tr key={m.model}>
                <td title={m.priceLabel ?? 'no price'}>{visibleText(m.model)}</td>
                <UsageCells l={m} />
                <td className="num">{usd(m)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>By turn</h3>
      <div className="table-scroll grow" tabIndex={0} role="region" aria-label="Cost by turn">
        <table className="cost-table" data-testid="cost-turns">
          <thead>
            <tr>
              <th scope="col">turn</th>
              <UsageHead />
              <th scope="col" className="num">
                cost
              </th>
            </tr>
          </thead>
          <tbody>
            {cost.turns.map((t) => (
              <tr key={t.turn}>
                <td className="prompt-cell" title={visibleText(t.prompt)}>
                  <span className="num dim">{t.turn}</span> {visibleText(turnTitle(t.turn, t.prompt))}
                </td>
                <UsageCells l={t} />
                <td className="num">{usd(t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The client's own running figure beside Glassbox's for the same responses; a difference over 1% is flagged. */
function ClientFigure({ client }: { client: ClientCostView }) {
  const mine = client.glassboxUsd === null ? 'no price' : formatUsd(client.glassboxUsd);
  return (
    <p className={client.differs ? 'cost-client warn' : 'cost-client dim'} data-testid="cost-client">
      The client itself recorded <strong>{formatUsd(client.clientUsd)}</strong>
      {client.clientGuessed ? ' (it priced a model it has no price for)' : ''} for the {client.responses} responses from line {client.fromLine}; Glassbox prices them at {mine}
      {client.differs ? ' — more than 1% apart' : ''}.
      {client.byModel
        .filter((m) => m.differs && m.clientTokens > m.glassboxTokens)
        .map((m) => (
          <span key={m.model}> {m.model}: the client counts {humanTokens(m.clientTokens - m.glassboxTokens)} more tokens, for requests no record logs (compaction, titles).</span>
        ))}
    </p>
  );
}

function UsageHead() {
  return (
    <>
      <th scope="col" className="num">
        responses
      </th>
      <th scope="col" className="num">
        input
      </th>
      <th scope="col" className="num">
        output
      </th>
      <th scope="col" className="num">
        cache writes
      </th>
      <th scope="col" className="num">
        cache reads
      </th>
    </>
  );
}

function UsageCells({ l }: { l: CostLineView }) {
  const u = l.usage;
  const cell = (n: number) => (
    <td className="num" title={exact(n)}>
      {humanTokens(n)}
    </td>
  );
  return (
    <>
      <td className="num">{l.responses}</td>
      {cell(u.inputTokens)}
      {cell(u.outputTokens)}
      {cell(u.cacheCreationTokens)}
      {cell(u.cacheReadTokens)}
    </>
  );
}
