/**
 * Provisional speakers of the other side while a meeting capture runs (docs/capture.md): each finished utterance's
 * voice embedding joins the most similar speaker heard so far when their cosine similarity reaches the threshold, or
 * becomes the next speaker ("Other side 1", "Other side 2", …). A speaker is the mean of its utterances' embeddings,
 * each scaled to length 1. Online and greedy, so it may split one person or join two; the capture's job diarizes the
 * whole recording afterwards, and its labels are the ones that count (they may be numbered differently).
 */
import { cosine } from '../../common/speaker-matching.js';

/** Similarity an utterance needs to join a speaker: sherpa-onnx's examples use 0.5-0.6 for real embedding models. */
export const LIVE_SPEAKER_SIMILARITY = 0.5;
/** Speakers told apart live at most; past this an utterance joins the most similar one. */
export const MAX_LIVE_SPEAKERS = 8;

interface Cluster {
  sum: number[];
  count: number;
}

export class OnlineSpeakers {
  private readonly clusters: Cluster[] = [];

  constructor(
    private readonly threshold = LIVE_SPEAKER_SIMILARITY,
    private readonly maxSpeakers = MAX_LIVE_SPEAKERS,
  ) {}

  /** The speaker number (from 1) of an utterance with this embedding; the utterance joins that speaker. */
  assign(embedding: readonly number[]): number {
    const unit = scaled(embedding);
    let best = -1;
    let bestSimilarity = -Infinity;
    this.clusters.forEach((cluster, i) => {
      const similarity = cosine(cluster.sum, unit);
      if (similarity > bestSimilarity) [best, bestSimilarity] = [i, similarity];
    });
    if (best < 0 || (bestSimilarity < this.threshold && this.clusters.length < this.maxSpeakers)) {
      this.clusters.push({ sum: [...unit], count: 1 });
      return this.clusters.length;
    }
    const cluster = this.clusters[best]!;
    for (let i = 0; i < unit.length; i++) cluster.sum[i]! += unit[i]!;
    cluster.count++;
    return best + 1;
  }
}

function scaled(v: readonly number[]): number[] {
  const length = Math.sqrt(v.reduce((n, x) => n + x * x, 0)) || 1;
  return v.map((x) => x / length);
}
